import type { GiftMonths, OfferedPriceView } from '@gatehouse/contracts';
import type { Gatehouse, GiftMethods, Session } from '@gatehouse/sdk';
import type { PropertyDeclarations } from 'lit';
import { sheet, type AccountElementParts } from './account';

/*
 * `<gatehouse-gift>` (docs/elements.md, "Gift subscriptions"): a buyer, signed in or not, gives 1,
 * 3, 6 or 12 months of a plan to someone by email, on a date they pick, and pays once at the
 * processor; and `<gatehouse-gift-redeem>`, the redemption the account element shows for a gift
 * email's link, which the account page loads gift.js for. Built, as the account elements are, on
 * the page's own GatehouseElement and lit, in gift.js: account.js stays within its budget.
 */

type Client = Gatehouse & GiftMethods;

const MONTHS: GiftMonths[] = [1, 3, 6, 12];
const STYLE_FIELDS = ['brandColor', 'brandColorHover', 'borderRadius', 'fontFamily', 'logoUrl'] as const;
const GIFT_CSS = `
  textarea { width: 100%; box-sizing: border-box; font: inherit; color: inherit; padding: 10px 12px; border: 1px solid #6b7080; border-radius: var(--gh-radius); background: #fff; }
  [part~='total'] { font-weight: 600; }
  .status { padding: 8px 12px; background: #eef7ee; border-radius: var(--gh-radius); }
  .status:empty { display: none; }
  h3 { font-size: 1rem; margin: 0 0 8px; }
`;

/** The fragment parameter of a gift email's link: contracts' GIFT_LINK_PARAMETER (the package imports types only; a unit test keeps the two equal). */
export const GIFT_PARAMETER = 'gatehouse-gift';

/** The query parameter the success page of the gift's checkout carries (the element there thanks the buyer). */
const PAID = 'gatehouse_gift_paid';

export interface GiftMessages {
  heading: string;
  plan: string;
  duration: string;
  /** `{n}` months. */
  months: string;
  oneMonth: string;
  recipientName: string;
  recipientEmail: string;
  buyerName: string;
  buyerEmail: string;
  sendOn: string;
  message: string;
  /** `{amount}` is the price of the gift. */
  total: string;
  buy: string;
  thanks: string;
  /** `<gatehouse-gift-redeem>`, in the account element of a gift email's link; `{months}`, `{product}`, `{date}` filled in. */
  redeemHeading: string;
  redeemSignedOut: string;
  redeem: string;
  redeemed: string;
  refused: Record<'not_found' | 'gift_voided' | 'gift_redeemed', string>;
  failed: string;
}

const en: GiftMessages = {
  heading: 'Give a subscription',
  plan: 'Plan',
  duration: 'Duration',
  months: '{n} months',
  oneMonth: '1 month',
  recipientName: 'Their name',
  recipientEmail: 'Their email',
  buyerName: 'Your name',
  buyerEmail: 'Your email',
  sendOn: 'Send the gift on',
  message: 'Your message (optional)',
  total: 'You pay {amount} once. Nothing renews.',
  buy: 'Buy the gift',
  thanks: 'Thank you! Your gift is paid: we email it on the day you chose.',
  redeemHeading: 'Your gift',
  redeemSignedOut: 'Sign in or create your account to redeem the gift you were given.',
  redeem: 'Redeem my gift',
  redeemed: 'Your gift is redeemed: {months} months of {product}, until {date}.',
  refused: { not_found: 'This gift code is not valid.', gift_voided: 'This gift was cancelled or refunded.', gift_redeemed: 'This gift has been redeemed already.' },
  failed: 'That did not work. Try again.',
};

const GIFT_MESSAGES: Record<string, GiftMessages> = {
  en,
  de: {
    heading: 'Ein Abonnement verschenken',
    plan: 'Angebot',
    duration: 'Dauer',
    months: '{n} Monate',
    oneMonth: '1 Monat',
    recipientName: 'Name der beschenkten Person',
    recipientEmail: 'E-Mail der beschenkten Person',
    buyerName: 'Ihr Name',
    buyerEmail: 'Ihre E-Mail',
    sendOn: 'Geschenk senden am',
    message: 'Ihre Nachricht (optional)',
    total: 'Sie zahlen einmalig {amount}. Nichts verlängert sich.',
    buy: 'Geschenk kaufen',
    thanks: 'Danke! Ihr Geschenk ist bezahlt: Wir versenden es am gewählten Tag.',
    redeemHeading: 'Ihr Geschenk',
    redeemSignedOut: 'Melden Sie sich an oder legen Sie Ihr Konto an, um Ihr Geschenk einzulösen.',
    redeem: 'Geschenk einlösen',
    redeemed: 'Ihr Geschenk ist eingelöst: {months} Monate {product}, bis {date}.',
    refused: { not_found: 'Dieser Geschenkcode ist ungültig.', gift_voided: 'Dieses Geschenk wurde storniert oder erstattet.', gift_redeemed: 'Dieses Geschenk wurde bereits eingelöst.' },
    failed: 'Das hat nicht geklappt. Versuchen Sie es erneut.',
  },
  fr: {
    heading: 'Offrir un abonnement',
    plan: 'Formule',
    duration: 'Durée',
    months: '{n} mois',
    oneMonth: '1 mois',
    recipientName: 'Son nom',
    recipientEmail: 'Son e-mail',
    buyerName: 'Votre nom',
    buyerEmail: 'Votre e-mail',
    sendOn: 'Envoyer le cadeau le',
    message: 'Votre message (facultatif)',
    total: 'Vous payez {amount} une seule fois. Rien ne se renouvelle.',
    buy: 'Acheter le cadeau',
    thanks: 'Merci ! Votre cadeau est payé : nous l’envoyons le jour choisi.',
    redeemHeading: 'Votre cadeau',
    redeemSignedOut: 'Connectez-vous ou créez votre compte pour profiter du cadeau qui vous est offert.',
    redeem: 'Utiliser mon cadeau',
    redeemed: 'Votre cadeau est activé : {months} mois de {product}, jusqu’au {date}.',
    refused: { not_found: 'Ce code cadeau n’est pas valide.', gift_voided: 'Ce cadeau a été annulé ou remboursé.', gift_redeemed: 'Ce cadeau a déjà été utilisé.' },
    failed: 'Cela n’a pas fonctionné. Réessayez.',
  },
  es: {
    heading: 'Regalar una suscripción',
    plan: 'Plan',
    duration: 'Duración',
    months: '{n} meses',
    oneMonth: '1 mes',
    recipientName: 'Su nombre',
    recipientEmail: 'Su correo electrónico',
    buyerName: 'Tu nombre',
    buyerEmail: 'Tu correo electrónico',
    sendOn: 'Enviar el regalo el',
    message: 'Tu mensaje (opcional)',
    total: 'Pagas {amount} una sola vez. No se renueva.',
    buy: 'Comprar el regalo',
    thanks: '¡Gracias! Tu regalo está pagado: lo enviamos el día que elegiste.',
    redeemHeading: 'Tu regalo',
    redeemSignedOut: 'Inicia sesión o crea tu cuenta para canjear el regalo que te han hecho.',
    redeem: 'Canjear mi regalo',
    redeemed: 'Tu regalo está canjeado: {months} meses de {product}, hasta el {date}.',
    refused: { not_found: 'Este código de regalo no es válido.', gift_voided: 'Este regalo se canceló o se reembolsó.', gift_redeemed: 'Este regalo ya se ha canjeado.' },
    failed: 'No ha funcionado. Inténtalo de nuevo.',
  },
  ar: {
    heading: 'أهدِ اشتراكًا',
    plan: 'الخطة',
    duration: 'المدة',
    months: '{n} أشهر',
    oneMonth: 'شهر واحد',
    recipientName: 'اسم المُهدى إليه',
    recipientEmail: 'بريد المُهدى إليه',
    buyerName: 'اسمك',
    buyerEmail: 'بريدك الإلكتروني',
    sendOn: 'إرسال الهدية في',
    message: 'رسالتك (اختياري)',
    total: 'تدفع {amount} مرة واحدة. لا يتجدد.',
    buy: 'شراء الهدية',
    thanks: 'شكرًا! تم دفع هديتك: نرسلها في اليوم الذي اخترته.',
    redeemHeading: 'هديتك',
    redeemSignedOut: 'سجّل الدخول أو أنشئ حسابك لاستخدام الهدية المقدّمة لك.',
    redeem: 'استخدام هديتي',
    redeemed: 'تم تفعيل هديتك: {months} أشهر من {product} حتى {date}.',
    refused: { not_found: 'رمز الهدية هذا غير صالح.', gift_voided: 'أُلغيت هذه الهدية أو استُردّ ثمنها.', gift_redeemed: 'استُخدمت هذه الهدية من قبل.' },
    failed: 'لم ينجح ذلك. حاول مجددًا.',
  },
};

/** The table of a locale (its primary subtag), English otherwise. */
export function giftMessagesFor(lang: string): GiftMessages {
  return GIFT_MESSAGES[lang.toLowerCase().split('-')[0]] ?? en;
}

/** What a gift of `months` of a price costs: the monthly price times the months, a yearly one pro rata (as billing charges it). */
export function giftAmount(price: Pick<OfferedPriceView, 'unitAmount' | 'interval'>, months: number): number {
  return price.interval === 'year' ? Math.round((price.unitAmount * months) / 12) : price.unitAmount * months;
}

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** Defines `<gatehouse-gift>` (once) on the given base class and lit. */
export function defineGiftElement(parts: AccountElementParts, client: Promise<Client>): void {
  const { Base, html, nothing } = parts;
  const styles = [Base.styles, sheet(GIFT_CSS)];

  class GatehouseGift extends Base {
    static override styles = styles;
    static override properties: PropertyDeclarations = {
      ...Base.properties,
      ...Object.fromEntries(STYLE_FIELDS.map((field) => [field, { type: String, attribute: field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) }])),
      successUrl: { type: String, attribute: 'success-url' },
      redeemUrl: { type: String, attribute: 'redeem-url' },
      prices: { state: true },
      session: { state: true },
      chosen: { state: true },
    };
    declare successUrl: string | undefined;
    declare redeemUrl: string | undefined;
    declare prices: OfferedPriceView[];
    declare session: Session | null;
    declare chosen: { priceId: string; months: GiftMonths };
    private sdk?: Client;
    private unsubscribe?: () => void;

    constructor() {
      super();
      this.prices = [];
      this.session = null;
      this.chosen = { priceId: '', months: 3 };
    }

    override connectedCallback(): void {
      super.connectedCallback();
      void client.then(async (sdk) => {
        this.sdk = sdk;
        this.unsubscribe?.();
        this.unsubscribe = sdk.onAuthChange((session) => (this.session = session));
        this.session = await sdk.getSession().catch(() => null);
        this.prices = (await sdk.getPrices().catch(() => [])).filter((price) => price.interval === 'month' || price.interval === 'year');
        this.chosen = { ...this.chosen, priceId: this.prices[0]?.id ?? '' };
      });
    }

    override disconnectedCallback(): void {
      super.disconnectedCallback();
      this.unsubscribe?.();
      this.unsubscribe = undefined;
    }

    protected override attributeValues() {
      const self = this as unknown as Record<string, string | undefined>;
      return Object.fromEntries(STYLE_FIELDS.map((field) => [field, self[field]]));
    }

    private get text(): GiftMessages {
      return giftMessagesFor(this.locale);
    }

    override render() {
      const t = this.text;
      if (new URLSearchParams(location.search).has(PAID)) {
        return this.frame(html`${this.logo()}<h2 part="heading">${t.heading}</h2><p class="status" part="status" role="status">${t.thanks}</p>`);
      }
      const price = this.prices.find((p) => p.id === this.chosen.priceId);
      const today = new Date().toISOString().slice(0, 10);
      return this.frame(html`${this.logo()}
        <h2 part="heading">${t.heading}</h2>
        <form part="form" novalidate @submit=${(event: SubmitEvent) => this.buy(event)} @change=${(event: Event) => this.choose(event)}>
          <div class="field">
            <label for="priceId" part="label">${t.plan}</label>
            <select id="priceId" name="priceId" part="input select">
              ${this.prices.map((p) => html`<option value=${p.id} ?selected=${p.id === this.chosen.priceId}>${p.productName}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="months" part="label">${t.duration}</label>
            <select id="months" name="months" part="input select">
              ${MONTHS.map((n) => html`<option value=${n} ?selected=${n === this.chosen.months}>${n === 1 ? t.oneMonth : fill(t.months, { n: String(n) })}</option>`)}
            </select>
          </div>
          ${this.field('recipientName', t.recipientName, 'text', 'off')} ${this.field('recipientEmail', t.recipientEmail, 'email', 'off')}
          ${this.field('buyerName', t.buyerName, 'text', 'name')} ${this.session ? nothing : this.field('buyerEmail', t.buyerEmail, 'email', 'email')}
          <div class="field">
            <label for="sendAt" part="label">${t.sendOn}</label>
            <input id="sendAt" name="sendAt" type="date" part="input" min=${today} .value=${today} />
          </div>
          <div class="field">
            <label for="message" part="label">${t.message}</label>
            <textarea id="message" name="message" part="input textarea" maxlength="500" rows="3"></textarea>
            <p id="message-error" class="field-error" part="field-error">${this.form.fieldErrors['message'] ?? ''}</p>
          </div>
          ${price ? html`<p part="total">${fill(t.total, { amount: this.amountText(price) })}</p>` : nothing} ${this.formFooter(t.buy)}
        </form>`);
    }

    private choose(event: Event): void {
      const target = event.target as HTMLSelectElement;
      if (target.name === 'priceId') this.chosen = { ...this.chosen, priceId: target.value };
      if (target.name === 'months') this.chosen = { ...this.chosen, months: Number(target.value) as GiftMonths };
    }

    private amountText(price: OfferedPriceView): string {
      const amount = giftAmount(price, this.chosen.months) / 100;
      try {
        return new Intl.NumberFormat(this.locale, { style: 'currency', currency: price.currency.toUpperCase() }).format(amount);
      } catch {
        return `${amount.toFixed(2)} ${price.currency.toUpperCase()}`;
      }
    }

    private async buy(event: SubmitEvent): Promise<void> {
      event.preventDefault();
      const values = this.formValues(event.target as HTMLFormElement);
      const here = location.href.split('#')[0];
      const success = new URL(this.successUrl ?? here, here);
      success.searchParams.set(PAID, '1');
      let url: string | undefined;
      await this.submitting(async () => {
        const checkout = await (this.sdk as Client).buyGift({
          priceId: values['priceId'] ?? '',
          months: Number(values['months']) as GiftMonths,
          recipientName: values['recipientName'] ?? '',
          recipientEmail: values['recipientEmail'] ?? '',
          buyerName: values['buyerName'] ?? '',
          ...(values['buyerEmail'] ? { buyerEmail: values['buyerEmail'] } : {}),
          ...(values['sendAt'] ? { sendAt: values['sendAt'] } : {}),
          ...(values['message'] ? { message: values['message'] } : {}),
          successUrl: success.href,
          cancelUrl: here,
          redeemUrl: new URL(this.redeemUrl ?? here, here).href,
        });
        url = checkout.url;
      });
      if (!url) return;
      this.emit('gift-checkout', { url });
      location.assign(url);
    }
  }

  /**
   * `<gatehouse-gift-redeem>`: the gift of an email's link (`#gatehouse-gift=<code>` on the page),
   * placed inside the page's `<gatehouse-account>`; nothing on a page without one. Signed out it
   * says how to redeem; signed in, "Redeem my gift" redeems it for the reader, says until when,
   * takes the code out of the address, emits `gift-redeem` and has the account element reload.
   */
  class GatehouseGiftRedeem extends Base {
    static override properties: PropertyDeclarations = { ...Base.properties, session: { state: true }, status: { state: true }, redeemed: { state: true } };
    static override styles = styles;
    private readonly code = new URLSearchParams(location.hash.slice(1)).get(GIFT_PARAMETER);
    declare session: Session | null;
    declare status: string;
    declare redeemed: boolean;
    private sdk?: Client;
    private unsubscribe?: () => void;

    constructor() {
      super();
      this.session = null;
      this.status = '';
      this.redeemed = false;
    }

    override connectedCallback(): void {
      super.connectedCallback();
      void client.then(async (sdk) => {
        this.sdk = sdk;
        this.unsubscribe?.();
        this.unsubscribe = sdk.onAuthChange((session) => (this.session = session));
        this.session = await sdk.getSession().catch(() => null);
      });
    }

    override disconnectedCallback(): void {
      super.disconnectedCallback();
      this.unsubscribe?.();
      this.unsubscribe = undefined;
    }

    protected override attributeValues() {
      return {};
    }

    override render() {
      if (!this.code) return nothing;
      const t = giftMessagesFor(this.locale);
      const action = this.session
        ? html`<button type="button" part="primary-button" ?disabled=${this.form.busy} @click=${() => this.redeem()}>${t.redeem}</button>`
        : html`<p part="description">${t.redeemSignedOut}</p>`;
      return this.frame(html`<section part="gift" aria-labelledby="gift-heading">
        <h3 id="gift-heading">${t.redeemHeading}</h3>
        <p class="status" part="status" role="status" aria-live="polite">${this.status}</p>
        ${this.redeemed ? nothing : action}
      </section>`);
    }

    private async redeem(): Promise<void> {
      const t = giftMessagesFor(this.locale);
      this.form = { ...this.form, busy: true };
      try {
        const redeemed = await (this.sdk as Client).redeemGift(this.code as string);
        history.replaceState(history.state, '', location.href.split('#')[0]);
        const date = new Intl.DateTimeFormat(this.locale, { dateStyle: 'long' }).format(new Date(redeemed.subscription.currentPeriodEnd));
        this.status = fill(t.redeemed, { months: String(redeemed.months), product: redeemed.productName, date });
        this.redeemed = true;
        this.emit('gift-redeem', { redemption: redeemed });
        // The account element it sits in shows the plan the gift made.
        void (this.parentElement as { load?: () => Promise<void> } | null)?.load?.();
      } catch (err) {
        this.status = (t.refused as Record<string, string>)[(err as { code?: string }).code ?? ''] ?? t.failed;
      } finally {
        this.form = { ...this.form, busy: false };
      }
    }
  }

  if (!customElements.get('gatehouse-gift')) customElements.define('gatehouse-gift', GatehouseGift);
  if (!customElements.get('gatehouse-gift-redeem')) customElements.define('gatehouse-gift-redeem', GatehouseGiftRedeem);
  if (!location.hash.includes(`${GIFT_PARAMETER}=`)) return;
  // A gift email's link: the redemption goes inside the page's account element, which shows what it holds.
  const place = () => {
    for (const account of document.querySelectorAll('gatehouse-account')) {
      if (!account.querySelector('gatehouse-gift-redeem')) account.append(document.createElement('gatehouse-gift-redeem'));
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', place, { once: true });
  else place();
}
