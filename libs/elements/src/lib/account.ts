import type {
  CancellationOptions,
  CancellationReason,
  CustomerProfile,
  CustomerPurchaseView,
  OfferedPriceView,
  OrganisationMemberView,
  OrganisationSeatsView,
  PlanChangePreview,
  SaveOfferView,
  SubscriptionView,
} from '@gatehouse/contracts';
import type { AccountMethods, Gatehouse, Session } from '@gatehouse/sdk';
import type { html as litHtml, nothing as litNothing, PropertyDeclarations, TemplateResult } from 'lit';
import { ACCOUNT_MESSAGES_EN, type AccountMessages } from './account-messages';
import type { GatehouseElement } from './base';

/*
 * `<gatehouse-account>` and `<gatehouse-account-button>` (docs/elements.md, "The reader's account").
 * They are built on the page's own GatehouseElement and lit, handed in by whoever defines them:
 * account.js takes them from elements.js (so lit is not loaded twice), a bundler's import from lit.
 */

export interface AccountElementParts {
  /** The base class of the other elements (`<gatehouse-register-form>`'s superclass on the page). */
  Base: typeof GatehouseElement;
  html: typeof litHtml;
  nothing: typeof litNothing;
}

type Client = Gatehouse & AccountMethods;
type Dialog = 'cancel' | 'delete' | 'plan' | 'pause';

const REASONS: CancellationReason[] = ['too_expensive', 'unused', 'switched_service', 'missing_features', 'low_quality', 'other'];
const STYLE_FIELDS = ['brandColor', 'brandColorHover', 'borderRadius', 'fontFamily', 'logoUrl'] as const;

const ACCOUNT_CSS = `
  section { border-block-start: 1px solid #d9dbe3; padding-block: 16px; }
  .status + section { border-block-start: 0; padding-block-start: 0; }
  h3 { font-size: 1rem; margin: 0 0 8px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0 0 12px; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; }
  .actions [part~='primary-button'] { width: auto; }
  .secondary { min-height: 44px; padding: 8px 14px; font: inherit; color: inherit; background: #fff; border: 1px solid #6b7080; border-radius: var(--gh-radius); cursor: pointer; }
  .danger { color: #b3261e; border-color: #b3261e; }
  .save { padding: 12px; margin-block-end: 12px; background: #eef7ee; border-radius: var(--gh-radius); }
  .payment-failed { padding: 8px 12px; background: #fdecea; color: #7a1a12; border-radius: var(--gh-radius); }
  .badge { display: inline-block; font-size: 0.85rem; padding: 0 8px; border-radius: 999px; background: #eef0f5; }
  .status:empty { display: none; }
  .status { padding: 8px 12px; background: #eef7ee; border-radius: var(--gh-radius); }
  fieldset { border: 0; padding: 0; margin: 0 0 12px; display: grid; gap: 6px; }
  legend { font-weight: 600; margin-block-end: 6px; }
  fieldset label { font-weight: 400; display: flex; gap: 8px; align-items: center; margin: 0; }
  fieldset input { width: auto; }
  dialog { border: 0; padding: 24px; max-width: min(440px, calc(100vw - 16px)); border-radius: var(--gh-radius); box-shadow: 0 12px 40px rgba(0, 0, 0, 0.3); color: inherit; }
  dialog::backdrop { background: rgba(15, 17, 26, 0.6); }
  .compact { display: inline-block; }
  .seats { list-style: none; padding: 0; margin: 0 0 12px; }
  .seats li { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 8px; padding-block: 4px; overflow-wrap: anywhere; }
  .compact [part~='account-button'] { min-height: 40px; padding: 6px 14px; font: inherit; font-family: var(--gh-font); border: 0; border-radius: var(--gh-radius); background: var(--gh-primary); color: var(--gh-on-primary, #fff); cursor: pointer; }
`;

export function sheet(cssText: string): CSSStyleSheet {
  const styles = new CSSStyleSheet();
  styles.replaceSync(cssText);
  return styles;
}

/** The page's SDK client with the methods `install` adds (the account's, the gift's), once it is initialised. */
export function installedClient<T>(install: (gatehouse: Gatehouse) => T): Promise<T> {
  return new Promise((resolve) => {
    const queue = ((window as unknown as { gatehouse?: { push(command: unknown): void } }).gatehouse ??= [] as unknown as { push(command: unknown): void });
    queue.push((gatehouse: Gatehouse) => resolve(install(gatehouse)));
  });
}

/** The page's auth modal (elements.js defines it): the one in the document, else a new one. */
function authModal(): { show(mode: 'login' | 'register'): Promise<void> } {
  let modal = document.querySelector('gatehouse-auth-modal');
  if (!modal) {
    modal = document.createElement('gatehouse-auth-modal');
    document.body.append(modal);
  }
  return modal as unknown as { show(mode: 'login' | 'register'): Promise<void> };
}

/** The nearest value of an attribute on the element or an ancestor, looking out of shadow roots (the account button's dialog holds an account element). */
function inherited(element: Element, attribute: 'lang' | 'dir'): string | null {
  let node: Element | null = element;
  while (node) {
    const found = node.closest(`[${attribute}]`);
    if (found) return found.getAttribute(attribute);
    const root = node.getRootNode();
    node = root instanceof ShadowRoot ? root.host : null;
  }
  return null;
}

/** The fragment parameter of an organisation invitation's link (ORGANISATION_INVITATION_PARAMETER). */
const JOIN_PARAMETER = 'gatehouse-join';

const codeOf = (err: unknown): string | undefined => (err as { code?: string } | null)?.code;

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** Defines the three tags (once) on the given base class and lit. */
export function defineAccountElements(parts: AccountElementParts, client: Promise<Client>): void {
  const { Base, html, nothing } = parts;
  const styles = [Base.styles, sheet(ACCOUNT_CSS)];

  /** What both tags share: the account table, the reader's session, branding attributes without copy fields. */
  abstract class AccountBase extends Base {
    static override properties: PropertyDeclarations = {
      ...Base.properties,
      ...Object.fromEntries(STYLE_FIELDS.map((field) => [field, { type: String, attribute: field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) }])),
      session: { state: true },
    };
    static override styles = styles;
    declare session: Session | null | undefined;
    protected sdk?: Client;
    private unsubscribe?: () => void;

    override connectedCallback(): void {
      super.connectedCallback();
      void client.then(async (sdk) => {
        this.sdk = sdk;
        this.unsubscribe?.();
        this.unsubscribe = sdk.onAuthChange((session) => this.sessionChanged(session));
        this.sessionChanged(await sdk.getSession().catch(() => null));
      });
    }

    override disconnectedCallback(): void {
      super.disconnectedCallback();
      this.unsubscribe?.();
      this.unsubscribe = undefined;
    }

    protected sessionChanged(session: Session | null): void {
      this.session = session;
    }

    protected get text(): AccountMessages {
      return this.messages.account ?? ACCOUNT_MESSAGES_EN;
    }

    protected get locale(): string {
      return inherited(this, 'lang') || document.documentElement.lang || 'en';
    }

    protected override get direction(): 'ltr' | 'rtl' {
      const dir = inherited(this, 'dir');
      return dir === 'rtl' || dir === 'ltr' ? dir : this.messages.dir;
    }

    protected override attributeValues() {
      const self = this as unknown as Record<string, string | undefined>;
      return Object.fromEntries(STYLE_FIELDS.map((field) => [field, self[field]]));
    }

    protected signInButtons(): TemplateResult {
      const t = this.text;
      return html`<div class="actions">
        <button type="button" part="primary-button" @click=${() => authModal().show('login')}>${t.signIn}</button>
        <button type="button" class="secondary" part="secondary-button" @click=${() => authModal().show('register')}>${t.createAccount}</button>
      </div>`;
    }
  }

  /**
   * `<gatehouse-account>`: signed out, the way in; signed in, the reader's details (editable),
   * plan, billing, cancellation, sign-out and their data.
   */
  class GatehouseAccount extends AccountBase {
    static override properties: PropertyDeclarations = {
      ...AccountBase.properties,
      profile: { state: true },
      subscriptions: { state: true },
      purchases: { state: true },
      prices: { state: true },
      editing: { state: true },
      status: { state: true },
      dialog: { state: true },
      deleteBy: { state: true },
      reasons: { state: true },
      picked: { state: true },
      preview: { state: true },
    };
    declare profile: CustomerProfile | null;
    declare subscriptions: SubscriptionView[];
    /** The reader's passes and single articles, newest first. */
    declare purchases: CustomerPurchaseView[];
    declare prices: OfferedPriceView[];
    declare editing: boolean;
    declare status: string;
    declare dialog: Dialog | null;
    /** The publication's reasons with their save offers for the subscription being cancelled (the built-in list until they arrive). */
    declare reasons: CancellationOptions['reasons'];
    declare picked: CancellationReason | null;
    /** What the plan picked in the plan dialog would cost, and when. */
    declare preview: PlanChangePreview | null;
    /** How the reader confirms a deletion: their password, or a sign-in code emailed to them (a reader who signs in by code has no password). */
    declare deleteBy: 'password' | 'code';
    private opener: HTMLElement | null = null;
    /** The subscription a dialog acts on. */
    private cancelling: SubscriptionView | null = null;

    constructor() {
      super();
      this.profile = null;
      this.subscriptions = [];
      this.purchases = [];
      this.prices = [];
      this.editing = false;
      this.status = '';
      this.dialog = null;
      this.deleteBy = 'password';
      this.reasons = [];
      this.picked = null;
      this.preview = null;
    }

    protected override sessionChanged(session: Session | null): void {
      const changed = session?.customer.id !== this.session?.customer.id;
      super.sessionChanged(session);
      if (!session) {
        this.profile = null;
        this.subscriptions = [];
        this.purchases = [];
        this.status = '';
      } else if (changed) void this.load();
    }

    /** The reader, their subscriptions, passes and articles, and the prices they name, fetched again. */
    async load(): Promise<void> {
      const sdk = this.sdk;
      if (!sdk || !this.session) return;
      try {
        const [profile, subscriptions, purchases, prices] = await Promise.all([sdk.getProfile(), sdk.getSubscriptions(), sdk.getPurchases().catch(() => []), sdk.getPrices().catch(() => [])]);
        Object.assign(this, { profile, subscriptions, purchases, prices });
      } catch {
        this.status = this.text.failed;
      }
    }

    override render() {
      const t = this.text;
      // What the page puts inside the element shows above its status line (gift.js's redemption of a gift email's link).
      const status = html`<slot></slot><p class="status" part="status" role="status" aria-live="polite" tabindex="-1">${this.status}</p>`;
      const content = !this.session
        ? html`<h2 part="heading">${t.heading}</h2>
            ${status}
            <p class="muted" part="description">${t.signedOut}</p>
            ${this.signInButtons()}`
        : html`<h2 part="heading">${t.heading}</h2>
            ${status}
            ${this.profileSection()} ${this.planSection()} ${this.purchasesSection()}
            <gatehouse-organisation embedded exportparts="organisation, seats, members, form, primary-button, secondary-button, status"></gatehouse-organisation>
            ${this.sessionSection()} ${this.dataSection()} ${this.dialogs()}`;
      return this.frame(html`${this.logo()} ${content}`);
    }

    private profileSection(): TemplateResult {
      const t = this.text;
      const profile = this.profile ?? { ...(this.session as Session).customer, createdAt: '' };
      if (this.editing) {
        return html`<section part="profile" aria-labelledby="profile-heading">
          <h3 id="profile-heading">${t.account}</h3>
          <form part="form" novalidate @submit=${(event: SubmitEvent) => this.saveProfile(event)}>
            ${this.input('name', t.name, 'text', 'name', profile.name)} ${this.input('email', t.email, 'email', 'email', profile.email)}
            <p class="form-error" part="form-error" role="alert">${this.form.formError}</p>
            <div class="actions">
              <button type="submit" part="primary-button" ?disabled=${this.form.busy}>${this.form.busy ? t.working : t.save}</button>
              <button type="button" class="secondary" part="secondary-button" @click=${() => this.stopEditing()}>${t.cancel}</button>
            </div>
          </form>
        </section>`;
      }
      return html`<section part="profile" aria-labelledby="profile-heading">
        <h3 id="profile-heading">${t.account}</h3>
        <dl>
          <dt>${t.name}</dt>
          <dd part="name">${profile.name}</dd>
          <dt>${t.email}</dt>
          <dd part="email">${profile.email} <span class="badge" part="verification">${profile.emailVerified ? t.verified : t.unverified}</span></dd>
        </dl>
        <div class="actions">
          <button type="button" class="secondary edit" part="secondary-button" @click=${() => this.startEditing()}>${t.edit}</button>
          ${profile.emailVerified
            ? nothing
            : html`<button type="button" class="secondary" part="secondary-button" @click=${() => this.resendVerification(profile.email)}>${t.resend}</button>`}
        </div>
      </section>`;
    }

    private input(name: string, label: string, type: string, autocomplete: string, value: string): TemplateResult {
      const error = this.form.fieldErrors[name] ?? '';
      return html`<div class="field">
        <label for=${name} part="label">${label}</label>
        <input id=${name} name=${name} type=${type} autocomplete=${autocomplete} part="input" required .value=${value}
          aria-invalid=${error ? 'true' : 'false'} aria-describedby="${name}-error" />
        <p id="${name}-error" class="field-error" part="field-error">${error}</p>
      </div>`;
    }

    private planSection(): TemplateResult {
      const t = this.text;
      const current = this.subscriptions.filter((subscription) => subscription.status !== 'cancelled');
      return html`<section part="plan" aria-labelledby="plan-heading">
        <h3 id="plan-heading">${t.plan}</h3>
        ${current.length === 0 ? html`<p class="muted">${t.noPlan}</p>` : current.map((subscription) => this.planOf(subscription))}
      </section>`;
    }

    private planOf(subscription: SubscriptionView): TemplateResult {
      const t = this.text;
      const price = this.prices.find((offered) => offered.id === subscription.priceId);
      const date = (iso: string | null) => (iso && !iso.startsWith('9999') ? new Intl.DateTimeFormat(this.locale, { dateStyle: 'long' }).format(new Date(iso)) : '');
      const end = date(subscription.currentPeriodEnd);
      const trial = subscription.status === 'trialing' && subscription.trialEnd ? fill(t.trialEnds, { date: date(subscription.trialEnd) }) : '';
      // While paused nothing renews: the pause's own line says when it runs again.
      const period = !end || (subscription.pausedUntil && !subscription.cancelAtPeriodEnd) ? '' : fill(subscription.cancelAtPeriodEnd ? t.ends : t.renews, { date: end });
      const billed = subscription.source === 'processor';
      const pastDue = subscription.status === 'past_due' && billed;
      const changeable = billed && !subscription.cancelAtPeriodEnd;
      const open = (which: Dialog) => (event: Event) => this.openDialog(which, event, subscription);
      return html`<div class="subscription" part="subscription">
        <p>
          ${price ? html`<strong part="product">${price.productName}</strong> · <span part="price">${this.priceText(price)}</span> · ` : nothing}
          <span class="badge" part="subscription-status">${t.status[subscription.status]}</span>
        </p>
        ${period ? html`<p part="period">${period}</p>` : nothing} ${trial ? html`<p part="trial">${trial}</p>` : nothing}
        ${pastDue ? html`<p class="payment-failed" part="payment-notice">${t.paymentFailed}</p>` : nothing}
        ${subscription.pausedUntil ? html`<p part="paused">${fill(t.pausedUntil, { date: date(subscription.pausedUntil) })}</p>` : nothing}
        <div class="actions">
          ${billed ? html`<button type="button" part="primary-button" @click=${() => this.manageBilling()}>${pastDue ? t.updatePayment : t.manageBilling}</button>` : nothing}
          ${changeable && this.plansFor(subscription).length > 0
            ? html`<button type="button" class="secondary" part="secondary-button" @click=${open('plan')}>${t.changePlan}</button>`
            : nothing}
          ${!changeable
            ? nothing
            : subscription.pausedUntil
              ? html`<button type="button" class="secondary" part="secondary-button" @click=${() => this.resume(subscription)}>${t.resume}</button>`
              : html`<button type="button" class="secondary" part="secondary-button" @click=${open('pause')}>${t.pause}</button>`}
          ${subscription.cancelAtPeriodEnd || !end
            ? nothing
            : html`<button type="button" class="secondary" part="secondary-button" @click=${open('cancel')}>${t.cancelPlan}</button>`}
        </div>
      </div>`;
    }

    /** Passes that have not ended, "until" their end to the minute, and single articles, each a link to its page. */
    private purchasesSection(): TemplateResult | typeof nothing {
      const t = this.text;
      const live = this.purchases.filter((purchase) => !purchase.endsAt || Date.parse(purchase.endsAt) > Date.now());
      return live.length === 0
        ? nothing
        : html`<section part="purchases" aria-labelledby="purchases-heading">
            <h3 id="purchases-heading">${t.purchases}</h3>
            <ul class="seats">
              ${live.map(
                (purchase) => html`<li part="purchase">
                  <strong part="product">${purchase.productName}</strong>
                  ${purchase.url
                    ? html`<a part="link" href=${purchase.url}>${purchase.url.replace(/^https?:\/\//, '')}</a>`
                    : html`<span part="period">${fill(t.passUntil, { date: this.date(purchase.endsAt, true) })}</span>`}
                </li>`,
              )}
            </ul>
          </section>`;
    }

    private priceText(price: OfferedPriceView): string {
      const amount = this.money(price.unitAmount, price.currency);
      // A subscription's price recurs or is a lifetime's: a pass's or an article's has no word here (and is no subscription's).
      const per = (this.text.interval as Record<string, string | undefined>)[price.interval];
      return per ? `${amount} ${per}` : amount;
    }

    private money(minor: number, currency: string): string {
      try {
        return new Intl.NumberFormat(this.locale, { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);
      } catch {
        return `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;
      }
    }

    private date(iso: string | null, time = false): string {
      return iso ? new Intl.DateTimeFormat(this.locale, { dateStyle: 'long', timeStyle: time ? 'short' : undefined }).format(new Date(iso)) : '';
    }

    /** The other monthly and yearly prices on sale in the subscription's currency (no lifetime, pass or article price). */
    private plansFor(subscription: SubscriptionView): OfferedPriceView[] {
      const current = this.prices.find((price) => price.id === subscription.priceId);
      return this.prices.filter((price) => current && price.id !== current.id && price.currency === current.currency && (price.interval === 'month' || price.interval === 'year'));
    }

    /** What a plan change costs and when, in the reader's words. */
    private previewText(preview: PlanChangePreview): string {
      const { when, currency, amountDue, nextAmount, nextChargeAt, effectiveAt } = preview;
      return when === 'now'
        ? fill(this.text.previewNow, { amount: this.money(amountDue, currency), next: this.money(nextAmount, currency), date: this.date(nextChargeAt) })
        : fill(this.text.previewLater, { date: this.date(effectiveAt), next: this.money(nextAmount, currency) });
    }

    /** A save offer in the reader's words; staff's offer name is text, never HTML. */
    private saveText(save: SaveOfferView): string {
      const t = this.text;
      if (save.kind === 'pause') return fill(t.savePause, { months: String(save.months) });
      if (save.kind === 'plan_change') return fill(t.savePlan, { plan: `${save.price.productName} · ${this.priceText(save.price)}` });
      const { percentOff, amountOff, currency, name } = save.offer;
      return fill(t.saveDiscount, { off: percentOff ? `${percentOff} %` : this.money(amountOff ?? 0, currency ?? ''), name });
    }

    private sessionSection(): TemplateResult {
      const t = this.text;
      return html`<section part="sessions" class="actions">
        <button type="button" class="secondary" part="secondary-button" @click=${() => this.sdk?.logout()}>${t.signOut}</button>
        <button type="button" class="secondary" part="secondary-button" @click=${() => this.signOutEverywhere()}>${t.signOutEverywhere}</button>
      </section>`;
    }

    private dataSection(): TemplateResult {
      const t = this.text;
      return html`<section part="data" aria-labelledby="data-heading">
        <h3 id="data-heading">${t.yourData}</h3>
        <div class="actions">
          <button type="button" class="secondary" part="secondary-button" @click=${() => this.downloadData()}>${t.download}</button>
          <button type="button" class="secondary danger" part="secondary-button danger-button" @click=${(event: Event) => this.openDialog('delete', event)}>${t.deleteAccount}</button>
        </div>
      </section>`;
    }

    private dialogs(): TemplateResult {
      const t = this.text;
      const close = () => this.closeDialog();
      const error = (which: Dialog) => html`<p class="form-error" part="form-error" role="alert">${this.dialog === which ? this.form.formError : ''}</p>`;
      const actions = (submit: string, dismiss: string, disabled = false) => html`<div class="actions">
        <button type="submit" part="primary-button" ?disabled=${this.form.busy || disabled}>${this.form.busy ? t.working : submit}</button>
        <button type="button" class="secondary" part="secondary-button" @click=${close}>${dismiss}</button>
      </div>`;
      const save = this.reasons.find((option) => option.reason === this.picked)?.save;
      const subscription = this.cancelling;
      const preview = this.preview;
      return html`<dialog part="dialog" class="cancel" aria-labelledby="cancel-heading" @cancel=${close} @close=${close}>
          <form part="form" novalidate @submit=${(event: SubmitEvent) => this.confirmCancel(event)}>
            <h2 id="cancel-heading">${t.cancelHeading}</h2>
            <p>${fill(t.cancelDescription, { date: this.date(subscription?.currentPeriodEnd ?? null) })}</p>
            <fieldset @change=${(event: Event) => (this.picked = (event.target as HTMLInputElement).value as CancellationReason)}>
              <legend>${t.reasonLabel}</legend>
              ${this.reasons.map(
                ({ reason, label }) => html`<label><input type="radio" name="reason" value=${reason} .checked=${reason === this.picked} />${label ?? t.reasons[reason]}</label>`,
              )}
            </fieldset>
            ${save
              ? html`<div class="save" part="save-offer" role="status">
                  <p>${this.saveText(save)}</p>
                  <button type="button" part="primary-button" ?disabled=${this.form.busy} @click=${() => this.acceptSave()}>${t.acceptSave}</button>
                </div>`
              : nothing}
            ${error('cancel')} ${actions(t.confirmCancel, t.keepPlan)}
          </form>
        </dialog>
        <dialog part="dialog" class="plan" aria-labelledby="plan-dialog-heading" @cancel=${close} @close=${close}>
          <form part="form" novalidate @submit=${(event: SubmitEvent) => this.confirmPlanChange(event)}>
            <h2 id="plan-dialog-heading">${t.changePlan}</h2>
            <fieldset @change=${(event: Event) => this.previewPlan((event.target as HTMLInputElement).value)}>
              <legend>${t.choosePlan}</legend>
              ${subscription && this.dialog === 'plan'
                ? this.plansFor(subscription).map(
                    (price) => html`<label><input type="radio" name="price" value=${price.id} />${price.productName} · ${this.priceText(price)}</label>`,
                  )
                : nothing}
            </fieldset>
            ${preview ? html`<p part="plan-preview" role="status">${this.previewText(preview)}</p>` : nothing}
            ${error('plan')} ${actions(t.confirmChange, t.cancel, !preview)}
          </form>
        </dialog>
        <dialog part="dialog" class="pause" aria-labelledby="pause-heading" @cancel=${close} @close=${close}>
          <form part="form" novalidate @submit=${(event: SubmitEvent) => this.confirmPause(event)}>
            <h2 id="pause-heading">${t.pauseHeading}</h2>
            <fieldset>
              <legend>${t.pauseFor}</legend>
              ${[1, 2, 3].map((months) => html`<label><input type="radio" name="months" value=${months} ?checked=${months === 1} />${fill(t.months[months === 1 ? 0 : 1], { n: String(months) })}</label>`)}
            </fieldset>
            ${error('pause')} ${actions(t.confirmPause, t.cancel)}
          </form>
        </dialog>
        <dialog part="dialog" class="delete" aria-labelledby="delete-heading" @cancel=${close} @close=${close}>
          <form part="form" novalidate @submit=${(event: SubmitEvent) => this.confirmDelete(event)}>
            <h2 id="delete-heading">${t.deleteHeading}</h2>
            <p>${t.deleteDescription}</p>
            ${this.deleteBy === 'password'
              ? html`${this.input('password', t.password, 'password', 'current-password', '')}
                  <p class="switch"><button type="button" class="link" part="link" @click=${() => this.sendDeletionCode()}>${t.useCode}</button></p>`
              : html`<p class="muted" part="description" role="status">${fill(t.codeSentTo, { email: this.profile?.email ?? '' })}</p>
                  ${this.input('code', t.code, 'text', 'one-time-code', '')}`}
            ${error('delete')}
            <div class="actions">
              <button type="submit" part="primary-button" class="danger" ?disabled=${this.form.busy}>${this.form.busy ? t.working : t.confirmDelete}</button>
              <button type="button" class="secondary" part="secondary-button" @click=${close}>${t.cancel}</button>
            </div>
          </form>
        </dialog>`;
    }

    private async startEditing(): Promise<void> {
      this.opener = this.renderRoot.querySelector('button.edit');
      this.editing = true;
      await this.updateComplete;
      (this.renderRoot.querySelector('input[name="name"]') as HTMLInputElement | null)?.focus();
    }

    private async stopEditing(): Promise<void> {
      this.editing = false;
      this.form = { fieldErrors: {}, formError: '', busy: false };
      await this.updateComplete;
      (this.renderRoot.querySelector('button.edit') as HTMLElement | null)?.focus();
    }

    private async saveProfile(event: SubmitEvent): Promise<void> {
      event.preventDefault();
      const values = this.formValues(event.target as HTMLFormElement);
      const before = this.profile ?? (this.session as Session).customer;
      const changes = { ...(values['name'] !== before.name ? { name: values['name'] } : {}), ...(values['email'] !== before.email ? { email: values['email'] } : {}) };
      let profile: CustomerProfile | undefined;
      const done = await this.submitting(async () => {
        profile = await (this.sdk as Client).updateProfile({ ...changes, returnUrl: location.href.split('#')[0] });
      });
      if (!done || !profile) return;
      this.profile = profile;
      this.status = 'email' in changes ? fill(this.text.verifySent, { email: profile.email }) : this.text.saved;
      await this.stopEditing();
    }

    private async resendVerification(email: string): Promise<void> {
      try {
        await this.sdk?.requestEmailVerification({ returnUrl: location.href.split('#')[0] });
        this.status = fill(this.text.verifySent, { email });
      } catch {
        this.status = this.text.failed;
      }
    }

    private async manageBilling(): Promise<void> {
      try {
        await this.sdk?.openPortal({ returnUrl: location.href.split('#')[0] });
      } catch {
        this.status = this.text.failed;
      }
    }

    private async signOutEverywhere(): Promise<void> {
      await this.sdk?.logout({ everywhere: true });
      this.emit('logout', { everywhere: true });
    }

    private async downloadData(): Promise<void> {
      try {
        const data = await (this.sdk as Client).exportMyData();
        const link = document.createElement('a');
        link.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
        link.download = 'my-data.json';
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
        this.status = this.text.downloaded;
      } catch {
        this.status = this.text.failed;
      }
    }

    private async openDialog(which: Dialog, event: Event, subscription?: SubscriptionView): Promise<void> {
      this.opener = event.currentTarget as HTMLElement;
      this.cancelling = subscription ?? null;
      this.form = { fieldErrors: {}, formError: '', busy: false };
      this.deleteBy = 'password';
      this.preview = null;
      if (which === 'cancel' && subscription) void this.loadReasons(subscription);
      this.dialog = which;
      this.requestUpdate();
      await this.updateComplete;
      const dialog = this.renderRoot.querySelector(`dialog.${which}`) as HTMLDialogElement;
      if (!dialog.open) dialog.showModal();
      (dialog.querySelector('input') as HTMLElement | null)?.focus();
    }

    private closeDialog(): void {
      if (!this.dialog) return;
      const dialog = this.renderRoot.querySelector(`dialog.${this.dialog}`) as HTMLDialogElement | null;
      this.dialog = null;
      this.picked = null;
      this.preview = null;
      if (dialog?.open) dialog.close();
      const opener = this.opener;
      this.opener = null;
      if (opener?.isConnected) opener.focus();
      else (this.renderRoot.querySelector('[part~="status"]') as HTMLElement | null)?.focus();
    }

    private async confirmCancel(event: SubmitEvent): Promise<void> {
      event.preventDefault();
      const subscription = this.cancelling;
      if (!subscription) return;
      const reason = this.picked ?? undefined;
      const updated = await this.changed((sdk) => sdk.cancelSubscription(subscription.subscriptionId, reason), (one) => fill(this.text.ends, { date: this.date(one.currentPeriodEnd) }));
      if (updated) this.emit('subscription-cancel', { subscription: updated });
    }

    /** The publication's reasons and save offers for this subscription; the built-in list when they cannot be had. */
    private async loadReasons(subscription: SubscriptionView): Promise<void> {
      const builtIn = REASONS.map((reason) => ({ reason, label: null, save: null }));
      this.reasons = builtIn;
      this.picked = null;
      const { reasons } = await (this.sdk as Client).getCancellationOptions(subscription.subscriptionId).catch(() => ({ reasons: builtIn }));
      if (this.cancelling !== subscription) return;
      this.reasons = reasons.length > 0 ? reasons : builtIn;
    }

    private async acceptSave(): Promise<void> {
      const subscription = this.cancelling;
      const reason = this.picked;
      if (!subscription || !reason) return;
      const updated = await this.changed(async (sdk) => (await sdk.acceptSaveOffer(subscription.subscriptionId, reason)).subscription, () => this.text.saveAccepted);
      if (updated) this.emit('subscription-save', { subscription: updated, reason });
    }

    private async previewPlan(priceId: string): Promise<void> {
      const subscription = this.cancelling;
      if (!subscription) return;
      this.preview = null;
      await this.submitting(async (sdk) => {
        this.preview = await (sdk as Client).previewPlanChange({ subscriptionId: subscription.subscriptionId, priceId });
      });
    }

    private async confirmPlanChange(event: SubmitEvent): Promise<void> {
      event.preventDefault();
      const preview = this.preview;
      if (!preview) return;
      const updated = await this.changed(
        async (sdk) => (await sdk.changePlan({ subscriptionId: preview.subscriptionId, priceId: preview.toPriceId, when: preview.when })).subscription,
        () => fill(this.text.planChanged, { date: this.date(preview.effectiveAt) }),
      );
      if (updated) this.emit('subscription-change', { subscription: updated });
    }

    private async confirmPause(event: SubmitEvent): Promise<void> {
      event.preventDefault();
      const subscription = this.cancelling;
      const months = Number(this.formValues(event.target as HTMLFormElement)['months'] ?? 1);
      if (!subscription) return;
      const updated = await this.changed(
        (sdk) => sdk.pauseSubscription({ subscriptionId: subscription.subscriptionId, months }),
        (one) => fill(this.text.pausedUntil, { date: this.date(one.pausedUntil) }),
      );
      if (updated) this.emit('subscription-change', { subscription: updated });
    }

    private async resume(subscription: SubscriptionView): Promise<void> {
      const updated = await this.changed((sdk) => sdk.resumeSubscription({ subscriptionId: subscription.subscriptionId }), () => this.text.resumed);
      if (updated) this.emit('subscription-change', { subscription: updated });
    }

    /**
     * Makes a change of a subscription, shows it in the plan with what `status` says, and closes
     * the dialog; the button that opened it may be gone, so focus goes to the plan's first action.
     */
    private async changed(change: (sdk: Client) => Promise<SubscriptionView>, status: (updated: SubscriptionView) => string): Promise<SubscriptionView | undefined> {
      let updated: SubscriptionView | undefined;
      const done = await this.submitting(async (sdk) => {
        updated = await change(sdk as Client);
      });
      if (!done || !updated) {
        if (!this.dialog) this.status = this.text.failed;
        return undefined;
      }
      const result = updated;
      this.subscriptions = this.subscriptions.map((one) => (one.subscriptionId === result.subscriptionId ? result : one));
      this.status = status(result);
      this.opener = null;
      this.closeDialog();
      await this.updateComplete;
      (this.renderRoot.querySelector('[part~="plan"] button') as HTMLElement | null)?.focus();
      return result;
    }

    /** Emails a sign-in code to the reader's address; the dialog then asks for it instead of the password. */
    private async sendDeletionCode(): Promise<void> {
      const email = this.profile?.email;
      if (!email) return;
      const done = await this.submitting((sdk) => sdk.requestLoginCode(email));
      if (!done) return;
      this.deleteBy = 'code';
      await this.updateComplete;
      (this.renderRoot.querySelector('dialog.delete input[name="code"]') as HTMLElement | null)?.focus();
    }

    private async confirmDelete(event: SubmitEvent): Promise<void> {
      event.preventDefault();
      const values = this.formValues(event.target as HTMLFormElement);
      const proof = this.deleteBy === 'code' ? { code: (values['code'] ?? '').replace(/\s+/g, '') } : { password: values['password'] ?? '' };
      const done = await this.submitting(async () => {
        await (this.sdk as Client).deleteMyAccount(proof);
      });
      if (!done) return;
      // Signed out by now: the dialog and its opener are gone; the status says what happened, and takes the focus.
      this.dialog = null;
      this.opener = null;
      this.status = this.text.deleted;
      this.emit('delete');
      await this.updateComplete;
      (this.renderRoot.querySelector('[part~="status"]') as HTMLElement | null)?.focus();
    }
  }

  /**
   * `<gatehouse-account-button>`: for a page header. Signed out, "Sign in" (the auth modal);
   * signed in, the reader's name, leading to `href` (the publisher's account page) or, without
   * one, opening `<gatehouse-account>` in a dialog.
   */
  class GatehouseAccountButton extends AccountBase {
    static override properties: PropertyDeclarations = { ...AccountBase.properties, href: { type: String }, opened: { state: true } };
    declare href: string | undefined;
    /** The account element exists only while the dialog is open: a header on every page asks the service nothing more. */
    declare opened: boolean;

    constructor() {
      super();
      this.opened = false;
    }

    override render() {
      const t = this.text;
      if (!this.session) {
        return this.frame(
          html`<span class="compact"><button type="button" part="account-button" @click=${() => authModal().show('login')}>${t.signIn}</button></span>`,
          'compact',
        );
      }
      const label = this.session.customer.name || t.account;
      const opener = this.href
        ? html`<a part="account-button" href=${this.href} aria-label="${t.heading}: ${label}">${label}</a>`
        : html`<button type="button" part="account-button" aria-haspopup="dialog" aria-label="${t.heading}: ${label}" @click=${() => this.open()}>${label}</button>`;
      return this.frame(
        html`<span class="compact">${opener}</span>
          <dialog part="dialog" aria-label=${t.heading} @close=${() => this.closed()}>
            <button type="button" class="close" part="close-button" aria-label=${t.close} @click=${() => this.close()}>×</button>
            ${this.opened ? html`<gatehouse-account></gatehouse-account>` : nothing}
          </dialog>`,
        'compact',
      );
    }

    private async open(): Promise<void> {
      this.opened = true;
      await this.updateComplete;
      const dialog = this.renderRoot.querySelector('dialog') as HTMLDialogElement;
      if (!dialog.open) dialog.showModal();
    }

    close(): void {
      (this.renderRoot.querySelector('dialog') as HTMLDialogElement | null)?.close();
    }

    private closed(): void {
      this.opened = false;
      (this.renderRoot.querySelector('[part~="account-button"]') as HTMLElement | null)?.focus();
    }

    protected override sessionChanged(session: Session | null): void {
      if (!session) this.close();
      super.sessionChanged(session);
    }
  }

  /**
   * `<gatehouse-organisation>` (docs/organisations.md): for a manager, each organisation they
   * manage with its seats used, members and open invitations, an invite form and Remove; on the
   * page an invitation's link opens (`#gatehouse-join=<token>`), the way to sign in or up, after
   * which the seat is taken. `embedded`, it is the manager's page inside `<gatehouse-account>`:
   * only the organisations (nothing for a reader who manages none), in the account's frame and theme.
   */
  class GatehouseOrganisation extends AccountBase {
    static override properties: PropertyDeclarations = {
      ...AccountBase.properties,
      organisations: { state: true },
      status: { state: true },
      joinToken: { state: true },
      embedded: { type: Boolean },
    };
    declare organisations: OrganisationSeatsView[] | null;
    declare status: string;
    declare joinToken: string | null;
    declare embedded: boolean;

    constructor() {
      super();
      this.organisations = null;
      this.status = '';
      this.joinToken = new URLSearchParams(location.hash.slice(1)).get(JOIN_PARAMETER);
    }

    protected override sessionChanged(session: Session | null): void {
      const changed = session?.customer.id !== this.session?.customer.id;
      super.sessionChanged(session);
      if (!session) this.organisations = null;
      else if (changed) void this.load();
    }

    private async load(): Promise<void> {
      const sdk = this.sdk;
      if (!sdk || !this.session) return;
      // Inside the account element, an invitation's link is its to take only when the page has no organisation element of its own.
      if (this.joinToken && !(this.embedded && document.querySelector('gatehouse-organisation'))) await this.join(sdk, this.joinToken);
      try {
        this.organisations = await sdk.getManagedOrganisations();
      } catch {
        this.status = this.text.failed;
      }
    }

    /** Takes the invitation's seat once, and drops its token from the address. */
    private async join(sdk: Client, token: string): Promise<void> {
      const o = this.text.organisation;
      this.joinToken = null;
      history.replaceState(history.state, '', location.pathname + location.search);
      try {
        const joined = await sdk.acceptOrganisationInvitation(token);
        this.status = fill(o.joined, { organisation: joined.organisation.name });
      } catch (err) {
        this.status = codeOf(err) === 'organisation_full' ? o.full : o.joinInvalid;
      }
    }

    override render() {
      const o = this.text.organisation;
      const status = html`<p class="status" part="status" role="status" aria-live="polite">${this.status}</p>`;
      // Embedded, the account element is the frame, and is signed in (its organisations are null until this element knows it too);
      // a reader who manages none and took no seat here gets nothing, not even a second status line.
      if (this.embedded) return this.organisations?.length || this.status ? html`${this.organisations?.map((seats) => this.organisationSection(seats))} ${status}` : nothing;
      if (!this.session) {
        return this.frame(html`${this.logo()}<h2 part="heading">${o.heading}</h2>
          ${status}
          <p class="muted" part="description">${this.joinToken ? o.joinSignIn : o.signedOut}</p>
          ${this.signInButtons()}`);
      }
      const list = this.organisations;
      const body = list === null ? nothing : list.length === 0 ? html`<p class="muted" part="description">${o.none}</p>` : list.map((seats) => this.organisationSection(seats));
      return this.frame(html`${this.logo()}<h2 part="heading">${o.heading}</h2>
        ${status} ${body}`);
    }

    private organisationSection({ organisation, members, invitations }: OrganisationSeatsView): TemplateResult {
      const o = this.text.organisation;
      const used = String(organisation.seatsUsed);
      const count = organisation.seats === null ? fill(o.unlimited, { used }) : fill(o.seats, { used, seats: String(organisation.seats) });
      const id = `organisation-${organisation.id}`;
      return html`<section part="organisation" aria-labelledby=${id}>
        <h3 id=${id}>${organisation.name}</h3>
        <p class="muted" part="seats">${count}</p>
        <ul class="seats" part="members" aria-label=${o.members}>
          ${members.length === 0 && invitations.length === 0 ? html`<li class="muted">${o.noMembers}</li>` : nothing}
          ${members.map(
            (member) =>
              html`<li>
                <span>${member.email}</span>
                <button type="button" class="secondary" part="secondary-button" aria-label=${`${o.remove} ${member.email}`} @click=${() => void this.removeMember(organisation.id, member)}>
                  ${o.remove}
                </button>
              </li>`,
          )}
          ${invitations.map((invitation) => html`<li><span>${invitation.email}</span> <span class="badge">${o.invited}</span></li>`)}
        </ul>
        <form part="form" novalidate @submit=${(event: SubmitEvent) => void this.invite(event, organisation.id)}>
          <div>
            <label for=${`${id}-email`}>${o.inviteEmail}</label>
            <input id=${`${id}-email`} name="email" type="email" autocomplete="off" required />
          </div>
          <div class="actions"><button type="submit" part="primary-button">${o.invite}</button></div>
        </form>
      </section>`;
    }

    private async invite(event: SubmitEvent, organisationId: string): Promise<void> {
      event.preventDefault();
      const o = this.text.organisation;
      const form = event.target as HTMLFormElement;
      const email = String(new FormData(form).get('email') ?? '').trim();
      if (!email || !this.sdk) return;
      try {
        await this.sdk.inviteToOrganisation(organisationId, email, location.href.split('#')[0]);
        form.reset();
        this.status = fill(o.invitationSent, { email });
        this.organisations = await this.sdk.getManagedOrganisations();
      } catch (err) {
        this.status = codeOf(err) === 'organisation_full' ? o.full : this.text.failed;
      }
    }

    private async removeMember(organisationId: string, member: OrganisationMemberView): Promise<void> {
      if (!this.sdk) return;
      try {
        await this.sdk.removeOrganisationMember(organisationId, member.customerId);
        this.status = fill(this.text.organisation.removed, { email: member.email });
        this.organisations = await this.sdk.getManagedOrganisations();
      } catch {
        this.status = this.text.failed;
      }
    }
  }

  if (!customElements.get('gatehouse-account')) customElements.define('gatehouse-account', GatehouseAccount);
  if (!customElements.get('gatehouse-organisation')) customElements.define('gatehouse-organisation', GatehouseOrganisation);
  if (!customElements.get('gatehouse-account-button')) customElements.define('gatehouse-account-button', GatehouseAccountButton);
}
