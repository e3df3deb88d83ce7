import type { DataWallField, OfferedPriceView, PaywallConfigs, PaywallPresentation, PaywallRule, PaywallSettings, PaywallType } from '@gatehouse/contracts';
import { css, html, nothing, type CSSResultGroup, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { GatehouseElement, sharedStyles } from './base';
import { WALL_COPY } from './copy';
import { ModalDialog, dialogStyles, pageAuthModal } from './auth';
import { thankSubscribers } from './checkout-thanks';
import { fill, plural } from './messages';
import { isPurchase } from './price-kinds';
import { ACCESS_TIMEOUT_MS, offeredPrices, onAccess, recheckAccess, sdkStarted, whenSdk, type AccessResult } from './sdk';

/** A price as the paywalls offer it: from `GET /api/v1/prices`, or the `prices` attribute (a JSON array of these). */
export type OfferedPrice = Pick<OfferedPriceView, 'id' | 'currency' | 'unitAmount' | 'interval'> & { productName?: string; trialDays?: number; passHours?: number | null };

/** Settings of each type for a preview: a new type fails to compile until it has them. */
const PREVIEW_SETTINGS: { [T in PaywallType]: PaywallConfigs[T] } = {
  hard: {},
  soft: {},
  newsletter: {},
  registration: {},
  metered: { limit: 3, period: 'month' },
  data: { fields: [{ name: 'company', label: 'Company', type: 'text', required: true }] },
};

/** What a paywall element shows without an access result: `preview="hard"` etc. (for the dashboard's preview and docs). */
function previewRule(type: string | null): PaywallRule {
  const kind = (type !== null && type in PREVIEW_SETTINGS ? type : 'hard') as PaywallType;
  const settings = { type: kind, config: PREVIEW_SETTINGS[kind] } as PaywallSettings;
  return { paywallId: 'preview', name: 'Preview', ...settings, presentation: 'modal', copy: null, oneTimePriceIds: [] };
}

const paywallStyles = css`
  .plans {
    border: 0;
    margin: 0 0 4px;
    padding: 0;
    display: grid;
    gap: 8px;
  }
  .plans legend {
    font-weight: 600;
    font-size: 0.9rem;
    margin-block-end: 6px;
    padding: 0;
  }
  .plan {
    display: flex;
    align-items: center;
    gap: 10px;
    padding: 10px 12px;
    border: 1px solid #6b7080;
    border-radius: var(--gh-radius);
    font-weight: 400;
    margin: 0;
    cursor: pointer;
  }
  .plan input {
    width: auto;
    margin: 0;
    accent-color: var(--gh-primary);
  }
  .plan strong {
    margin-inline-start: auto;
  }
  .secondary {
    margin: 12px 0 0;
    text-align: center;
  }
  .card {
    border: 1px solid #c9ccd6;
    border-radius: var(--gh-radius);
    padding: 24px;
    background: #fff;
  }
  @media (max-width: 400px) {
    .card {
      padding: 16px 12px;
    }
  }
`;

/**
 * Shared by the four paywall elements: the last access result of the page (or `preview`),
 * the rule's copy with the experiment variant applied, the offer for its type, and the
 * paywall events (`paywall_shown`, `paywall_dismissed`, `paywall_converted`).
 */
export abstract class PaywallElement extends GatehouseElement {
  static override styles: CSSResultGroup = [sharedStyles, paywallStyles];
  /** The presentation this element shows by itself when no `paywall-id` names the paywall. */
  static presentation: PaywallPresentation;

  static paywallProperties(name: 'paywall-modal' | 'inline-paywall' | 'sticky-bar' | 'content-lock'): PropertyDeclarations {
    return {
      ...GatehouseElement.properties,
      ...GatehouseElement.brandingProperties(name),
      paywallId: { type: String, attribute: 'paywall-id' },
      prices: { type: Array },
      successUrl: { type: String, attribute: 'success-url' },
      cancelUrl: { type: String, attribute: 'cancel-url' },
      preview: { type: String, reflect: true },
      rule: { state: true },
      access: { state: true },
      onSale: { state: true },
    };
  }

  declare paywallId: string | null;
  /** Given by the page; null: the publication's prices on sale. */
  declare prices: OfferedPrice[] | null;
  declare onSale: OfferedPrice[];
  declare successUrl: string | null;
  declare cancelUrl: string | null;
  declare preview: string | null;
  declare rule: PaywallRule | null;
  declare access: AccessResult | null;
  private unsubscribe?: () => void;
  private shownFor: string | null = null;
  private dismissed = false;
  /** The reader closed an offer that is not dismissible (the page stays locked): it shows again on the next decision or when asked to. */
  protected closed = false;

  constructor() {
    super();
    this.paywallId = null;
    this.prices = null;
    this.onSale = [];
    this.successUrl = null;
    this.cancelUrl = null;
    this.preview = null;
    this.rule = null;
    this.access = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    thankSubscribers();
    this.unsubscribe = onAccess((result) => this.receive(result));
    if (this.prices === null) void offeredPrices().then((prices) => (this.onSale = prices));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  /** The rule this element shows, or null. */
  protected get activeRule(): PaywallRule | null {
    return this.preview !== null ? previewRule(this.preview) : this.dismissed ? null : this.rule;
  }

  protected receive(result: AccessResult | null): void {
    this.access = result;
    this.closed = false;
    const rule = result?.paywallRule ?? null;
    const mine = rule !== null && (this.paywallId ? rule.paywallId === this.paywallId : this.handles(rule));
    const showing = mine && result !== null && (!result.granted || (result.reason === 'soft' && this.offersSoft));
    this.rule = showing ? rule : null;
    // One element per rule counts as showing it: the one of its presentation, or the one naming it.
    if (!showing || !(this.paywallId || rule.presentation === (this.constructor as typeof PaywallElement).presentation)) return;
    const key = `${rule.paywallId}:${result.experiment?.variantId ?? ''}`;
    if (this.shownFor !== key) {
      this.shownFor = key;
      this.dismissed = false;
      this.track('paywall_shown');
    }
  }

  /** Shows the offer again (the content lock's button): a closed or dismissed one too. */
  showOffer(): void {
    this.dismissed = this.closed = false;
    this.requestUpdate();
    this.scrollIntoView({ block: 'center' });
  }

  /** Whether a soft rule's hint (access granted) shows the offer. */
  protected offersSoft = true;

  protected handles(rule: PaywallRule): boolean {
    return rule.presentation === (this.constructor as typeof PaywallElement).presentation;
  }

  protected track(type: 'paywall_shown' | 'paywall_dismissed' | 'paywall_converted'): void {
    const rule = this.rule;
    if (!rule || this.preview !== null) return;
    const experiment = this.access?.experiment;
    void whenSdk().then((sdk) => sdk.trackEvent(type, { paywallId: rule.paywallId, ...(experiment ?? {}) }));
  }

  /** The reader closed the offer: `paywall_dismissed`, and the `close` event. */
  protected dismiss(): void {
    this.track('paywall_dismissed');
    this.dismissed = true;
    this.emit('close');
    this.requestUpdate();
  }

  /** The copy of the rule's type (a newsletter wall never borrows a subscription's words). */
  protected heading(rule: PaywallRule): string {
    return this.copy(`${WALL_COPY[rule.type]}Heading`, rule.copy);
  }

  protected description(rule: PaywallRule): string {
    // Only the elements spec 8.1 lists for paywallDescription show it; the others say why.
    return this.elementName === 'paywall-modal' || this.elementName === 'inline-paywall' ? this.copy(`${WALL_COPY[rule.type]}Description`, rule.copy) : this.messages.reason[rule.type];
  }

  protected cta(rule: PaywallRule): string {
    return this.copy(`${WALL_COPY[rule.type]}CtaText`, rule.copy);
  }

  /**
   * "€6.00 a month", or with a trial "14 days free, then €6.00 a month", in the reader's locale; a
   * pass or a single article, its amount alone (its name says what it buys).
   */
  private priceLabel(price: OfferedPrice): string {
    const m = this.messages;
    let amount: string;
    try {
      amount = new Intl.NumberFormat(this.locale, { style: 'currency', currency: price.currency.toUpperCase() }).format(price.unitAmount / 100);
    } catch {
      amount = `${(price.unitAmount / 100).toFixed(2)} ${price.currency.toUpperCase()}`;
    }
    if (isPurchase(price.interval)) return amount;
    const label = `${amount} ${m.interval[price.interval]}`;
    return price.trialDays ? plural(m.trial, price.trialDays, this.locale, { price: label }) : label;
  }

  /** What the choice buys: a plan's product, a "7-day pass" (whole days, else hours), or "This article only". */
  private choiceName(price: OfferedPrice): string {
    const m = this.messages;
    const hours = price.passHours ?? 0;
    if (price.interval === 'pass') return hours % 24 === 0 ? plural(m.passDays, hours / 24, this.locale) : plural(m.passHours, hours, this.locale);
    return price.interval === 'single_article' ? m.thisArticle : (price.productName ?? '');
  }

  /** The subscription plans on sale, then the rule's passes and single article (the prices on sale name their terms). */
  private choices(rule: PaywallRule): OfferedPrice[] {
    const onSale = this.prices ?? this.onSale;
    const plans = onSale.filter((price) => !isPurchase(price.interval));
    return [...plans, ...rule.oneTimePriceIds.flatMap((id) => onSale.filter((price) => price.id === id && isPurchase(price.interval)))];
  }

  /** The offer of the rule's type: plans and checkout, a free account, the newsletter or the data form. */
  protected offer(rule: PaywallRule, compact = false): TemplateResult {
    const m = this.messages;
    // Only a wall that sells a subscription speaks of subscribers.
    const signIn = html`<p class="secondary">
      <button type="button" class="link" part="login-link" @click=${() => void pageAuthModal().show('login')}>${WALL_COPY[rule.type] === 'paywall' || rule.type === 'soft' ? m.haveAccount : m.toLogin}</button>
    </p>`;
    if (rule.type === 'registration') {
      return html`<button type="button" part="primary-button" @click=${() => void pageAuthModal().show('register')}>${this.cta(rule)}</button>${signIn}`;
    }
    if (rule.type === 'newsletter' || rule.type === 'data') {
      const fields: DataWallField[] =
        rule.type === 'newsletter' ? [{ name: 'email', label: m.email, type: 'email', required: true }] : rule.config.fields;
      return html`<form part="form" novalidate @submit=${(event: SubmitEvent) => this.submitWall(rule, event)}>
          ${fields.map((f) => this.field(f.name, f.label, f.type, f.type === 'email' ? 'email' : 'off', f.required))} ${this.formFooter(this.cta(rule))}
        </form>
        ${signIn}`;
    }
    const prices = this.choices(rule);
    const plans = compact
      ? html`<label for="plan" class="visually-hidden">${m.choosePlan}</label>
          <select id="plan" name="priceId" part="plans">
            ${prices.map((p) => html`<option value=${p.id}>${this.choiceName(p) ? `${this.choiceName(p)} · ` : ''}${this.priceLabel(p)}</option>`)}
          </select>`
      : html`<fieldset class="plans" part="plans">
          <legend>${m.choosePlan}</legend>
          ${prices.map(
            (p, i) =>
              html`<label class="plan" part="plan"><input type="radio" name="priceId" value=${p.id} ?checked=${i === 0} /><span>${this.choiceName(p)}</span><strong>${this.priceLabel(p)}</strong></label>`,
          )}
        </fieldset>`;
    return html`<form part="form" @submit=${(event: SubmitEvent) => this.startCheckout(event)}>
        ${prices.length ? html`${plans}<gatehouse-offer-code></gatehouse-offer-code>` : html`<p class="muted">${m.noPlans}</p>`} ${this.formFooter(this.cta(rule))}
      </form>
      ${signIn}`;
  }

  private async submitWall(rule: PaywallRule, event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const values = this.formValues(form);
    const type = rule.type === 'newsletter' ? 'newsletter_subscribe' : 'data_submit';
    const m = this.messages;
    await this.submitting(async (sdk) => {
      // What the wall would refuse never leaves the page; the service checks it again.
      const errors = [...form.querySelectorAll('input')]
        .filter((input) => !input.checkValidity())
        .map((input) => {
          const field = input.labels?.[0]?.textContent?.trim() || input.name;
          return { field: input.name, message: fill(input.validity.valueMissing ? m.required : input.type === 'email' ? m.invalidEmail : m.invalidValue, { field }) };
        });
      if (errors.length) throw { status: 400, errors };
      await sdk.sendEvent(type, { paywallId: rule.paywallId, ...(this.access?.experiment ?? {}), data: values });
      // The service keeps and announces only which fields were filled in: the values are the page's to pass on.
      if (type === 'data_submit') this.emit('data-submit', { paywallId: rule.paywallId, data: values });
      for (let attempt = 0; attempt < 10; attempt++) {
        if ((await recheckAccess()).granted) return;
        await new Promise((done) => setTimeout(done, 500));
      }
      throw { detail: this.messages.failed, status: 400 };
    });
  }

  /** Checkout for the chosen price; a reader not logged in registers first, then it goes on. */
  private async startCheckout(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const priceId = this.formValues(event.target as HTMLFormElement)['priceId'];
    const rule = this.rule;
    if (!priceId) return;
    if (!this.emit('checkout', { priceId, paywallId: rule?.paywallId ?? null }, true)) return;
    const sdk = await whenSdk();
    if (!(await sdk.getSession())) {
      const modal = pageAuthModal();
      const proceed = () => void this.checkout(priceId);
      const onAuth = () => {
        modal.removeEventListener('close', onClose);
        proceed();
      };
      const onClose = () => {
        modal.removeEventListener('login', onAuth);
        modal.removeEventListener('register', onAuth);
      };
      modal.addEventListener('login', onAuth, { once: true });
      modal.addEventListener('register', onAuth, { once: true });
      modal.addEventListener('close', onClose, { once: true });
      await modal.show('register');
      return;
    }
    await this.checkout(priceId);
  }

  private async checkout(priceId: string): Promise<void> {
    const experiment = this.access?.experiment;
    await this.submitting(async (sdk) => {
      this.track('paywall_converted');
      await sdk.flush();
      const paywallId = this.rule && this.preview === null ? this.rule.paywallId : undefined;
      // A single article buys the page the reader is on.
      const article = (this.prices ?? this.onSale).some((price) => price.id === priceId && price.interval === 'single_article');
      await sdk.checkout({
        priceId,
        successUrl: this.successUrl || location.href,
        cancelUrl: this.cancelUrl || location.href,
        paywallId,
        ...(article ? { articleUrl: location.href } : {}),
        ...(experiment ?? {}),
      });
    });
  }
}

/** `<gatehouse-paywall-modal>`: the offer in a dialog over the page. */
export class PaywallModal extends PaywallElement {
  static override elementName = 'paywall-modal' as const;
  static override presentation: PaywallPresentation = 'modal';
  static override styles: CSSResultGroup = [sharedStyles, dialogStyles, paywallStyles];
  static override properties = PaywallElement.paywallProperties('paywall-modal');
  private readonly dialog = new ModalDialog(this, () => this.close());

  /**
   * Closes the offer (as Escape and the close button do): `paywall_dismissed` and `close`. Only a
   * soft paywall is dismissed; any other closes onto a page a content lock keeps locked, whose
   * button opens it again, and stays open on a page without one (closing would show the article).
   */
  close(): void {
    const rule = this.activeRule;
    if (!rule || !closable(rule) || !this.dialog.close()) return;
    if (rule.type === 'soft') return this.dismiss();
    this.closed = true;
    this.track('paywall_dismissed');
    this.emit('close');
  }

  override showOffer(): void {
    this.closed = false;
    this.requestUpdate();
  }

  override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (this.activeRule && !this.closed && !this.dialog.isOpen) void this.dialog.open();
    if ((!this.activeRule || this.closed) && this.dialog.isOpen) this.dialog.close();
  }

  override render() {
    const rule = this.activeRule;
    const m = this.messages;
    const body = rule
      ? html`${this.logo()}
          <h2 part="heading" id="heading">${this.heading(rule)}</h2>
          <p part="description" class="muted">${this.description(rule)}</p>
          ${this.offer(rule)}`
      : nothing;
    // Closed onto a page without a content lock (the server held the text back): the way back to the offer is here.
    const back =
      rule && this.closed && !document.querySelector('gatehouse-content-lock')
        ? html`<section class="card" part="card">
            <p part="description">${m.reason[rule.type]}</p>
            <button type="button" part="primary-button" @click=${() => this.showOffer()}>${this.cta(rule)}</button>
          </section>`
        : nothing;
    return this.frame(html`${this.dialog.shell(m.paywallDialog, m.close, body, !rule || closable(rule))}${back}`);
  }
}

/**
 * Whether an offer may close: a soft one always; any other only on a page that stays locked
 * without it, behind a content lock or with its paid text held back by the publisher's server
 * (`@gatehouse/node` marks the offer it puts in its place `data-gatehouse="paywall"`).
 */
function closable(rule: PaywallRule): boolean {
  return rule.type === 'soft' || document.querySelector('gatehouse-content-lock, [data-gatehouse="paywall"]') !== null;
}

/** `<gatehouse-inline-paywall>`: the offer in the flow of the article. */
export class InlinePaywall extends PaywallElement {
  static override elementName = 'inline-paywall' as const;
  static override presentation: PaywallPresentation = 'inline';
  static override properties = PaywallElement.paywallProperties('inline-paywall');

  override render() {
    const rule = this.activeRule;
    if (!rule) return nothing;
    return this.frame(
      html`<section class="card" part="card" aria-labelledby="heading">
        ${this.logo()}
        <h2 part="heading" id="heading">${this.heading(rule)}</h2>
        <p part="description" class="muted">${this.description(rule)}</p>
        ${this.offer(rule)} ${rule.type === 'soft' ? html`<p class="secondary"><button type="button" class="link" part="dismiss" @click=${() => this.dismiss()}>${this.messages.close}</button></p>` : nothing}
      </section>`,
    );
  }
}

const barStyles = css`
  .bar {
    position: fixed;
    inset-inline: 0;
    inset-block-end: 0;
    z-index: 2147483000;
    background: #fff;
    border-block-start: 1px solid #c9ccd6;
    box-shadow: 0 -6px 24px rgba(0, 0, 0, 0.12);
    padding: 12px 56px 12px 16px;
  }
  /* A preview shows the bar where the page puts the element, not over the window. */
  :host([preview]) .bar {
    position: relative;
    z-index: auto;
  }
  .bar[dir='rtl'] {
    padding: 12px 16px 12px 56px;
  }
  .inner {
    max-width: 960px;
    margin: 0 auto;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px 16px;
  }
  .inner .logo {
    margin: 0;
    max-height: 28px;
  }
  .inner > .text {
    flex: 1 1 220px;
  }
  .inner h2 {
    font-size: 1.05rem;
    margin: 0;
  }
  .inner p {
    margin: 0;
  }
  .inner form {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    flex: 1 1 240px;
  }
  .inner form > * {
    flex: 1 1 140px;
  }
  .inner .form-error {
    flex-basis: 100%;
  }
  .inner .secondary {
    margin: 0;
    flex-basis: 100%;
    text-align: start;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;

/** `<gatehouse-sticky-bar>`: a compact offer fixed to the bottom of the window; the reader may close it. */
export class StickyBar extends PaywallElement {
  static override elementName = 'sticky-bar' as const;
  static override presentation: PaywallPresentation = 'sticky_bar';
  static override styles: CSSResultGroup = [sharedStyles, paywallStyles, barStyles];
  static override properties = PaywallElement.paywallProperties('sticky-bar');

  override render() {
    const rule = this.activeRule;
    if (!rule) return nothing;
    return this.frame(
      html`<section class="inner" aria-labelledby="heading">
          ${this.logo()}
          <div class="text">
            <h2 part="heading" id="heading">${this.heading(rule)}</h2>
            <p class="muted" part="description">${this.description(rule)}</p>
          </div>
          ${this.offer(rule, true)}
        </section>
        <button class="close" part="close-button" type="button" aria-label=${this.messages.close} @click=${() => this.dismiss()}>×</button>`,
      'bar',
    );
  }
}

/** The elements that make the offer of a rule by its presentation (the content lock makes its own). */
const OFFERED_BY: Partial<Record<PaywallPresentation, string>> = { modal: 'gatehouse-paywall-modal', inline: 'gatehouse-inline-paywall', sticky_bar: 'gatehouse-sticky-bar' };

const lockStyles = css`
  .locked {
    border: 1px dashed #6b7080;
    border-radius: var(--gh-radius);
    padding: 24px;
    background: #f6f6f9;
  }
  @media (max-width: 400px) {
    .locked {
      padding: 16px 12px;
    }
  }
`;

/**
 * `<gatehouse-content-lock>`: its children show only to a reader granted access to the page;
 * a denied reader sees why, with the rule's copy and its offer.
 */
export class ContentLock extends PaywallElement {
  static override elementName = 'content-lock' as const;
  static override presentation: PaywallPresentation = 'content_lock';
  static override styles: CSSResultGroup = [sharedStyles, paywallStyles, lockStyles];
  static override properties = PaywallElement.paywallProperties('content-lock');

  protected override offersSoft = false;

  override connectedCallback(): void {
    super.connectedCallback();
    // The SDK's script never started (blocked, failed): after its timeout, the fail mode of its tag decides.
    setTimeout(() => {
      if (!this.access && !sdkStarted()) this.receive({ granted: document.querySelector('script[data-fail-mode="closed"]') === null, reason: 'service_unavailable', customerId: null });
    }, ACCESS_TIMEOUT_MS);
  }

  /** Every denial locks the content, whatever the rule's presentation; `paywall-id` narrows it to one paywall. */
  protected override handles(): boolean {
    return true;
  }

  override render() {
    const rule = this.activeRule;
    // Until the first access result the children stay hidden: a denied reader never glimpses them.
    if (this.preview === null && this.access?.granted === true) return html`<slot></slot>`;
    if (!rule) return html`<div part="pending" aria-busy="true"></div>`;
    // The element of the rule's presentation on this page makes the offer: here only its way back, so the page shows one offer.
    const tag = OFFERED_BY[rule.presentation];
    const offering = tag ? document.querySelector<PaywallElement>(tag) : null;
    return this.frame(
      html`<section class="locked" part="card" aria-labelledby="heading">
        ${this.logo()}
        <h2 part="heading" id="heading">${this.heading(rule)}</h2>
        <p part="description" class="muted">${this.description(rule)}</p>
        ${offering ? html`<button type="button" part="primary-button" @click=${() => offering.showOffer()}>${this.cta(rule)}</button>` : this.offer(rule)}
      </section>`,
    );
  }
}
