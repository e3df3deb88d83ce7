import type { OfferTerms } from '@gatehouse/contracts';
import { offerTermsText } from './offer-terms';
import { errorOf, offeredPrices, whenSdk } from './sdk';

/*
 * Offers on the reader's side (docs/elements.md): `<gatehouse-offer-code>`, the code field a
 * paywall's plans show when the page loads /sdk/v1/offers.js, and the terms it shows for the
 * chosen plan ("€3 a month for 3 months, then €6"). It lives in its own script, outside the
 * elements' size budget, and needs no framework: plain DOM in a shadow root.
 */

const REFUSALS: Record<string, string> = {
  not_found: 'This code is not valid.',
  offer_expired: 'This offer has ended.',
  offer_exhausted: 'This offer is no longer available.',
  offer_not_applicable: 'This offer is not available to you.',
  validation_failed: 'This code is not valid.',
};

const STYLE = `:host{display:block;margin-top:.75rem;font:inherit}
.row{display:flex;gap:.5rem}
input{flex:1;min-width:0;font:inherit;padding:.5rem .625rem;border:1px solid #94a3b8;border-radius:var(--gatehouse-radius,8px)}
button{font:inherit;padding:.5rem .875rem;border:1px solid var(--gatehouse-primary,#6c5ce7);color:var(--gatehouse-primary,#6c5ce7);background:#fff;border-radius:var(--gatehouse-radius,8px);cursor:pointer}
label{display:block;font-size:.875em;margin-bottom:.25rem}
p{margin:.5rem 0 0;font-size:.875em}
p[data-tone=refused]{color:#b91c1c}`;

/** `<gatehouse-offer-code>`: inside a paywall's plans form, a code field whose offer applies to the checkout. */
export class OfferCode extends HTMLElement {
  private readonly input: HTMLInputElement;
  private readonly status: HTMLParagraphElement;
  private terms: OfferTerms | null = null;
  private readonly onPlanChange = () => void this.show();

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>${STYLE}</style><div part="offer-code"><label for="code">Offer code</label><div class="row"><input id="code" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="40"><button type="button" part="offer-apply">Apply</button></div><p role="status" aria-live="polite" part="offer-terms"></p></div>`;
    this.input = root.querySelector('input') as HTMLInputElement;
    this.status = root.querySelector('p') as HTMLParagraphElement;
    (root.querySelector('button') as HTMLButtonElement).addEventListener('click', () => void this.apply());
    this.input.addEventListener('keydown', (event) => {
      // Enter applies the code rather than submitting the plans form around it.
      if (event.key !== 'Enter') return;
      event.preventDefault();
      void this.apply();
    });
  }

  connectedCallback(): void {
    this.closest('form')?.addEventListener('change', this.onPlanChange);
    void whenSdk().then((sdk) => {
      // A code from the page's link (`?offer=`), or the one the reader's experiment variant carries, is applied at once.
      const code = sdk.offerCode ?? sdk.lastAccess?.paywallRule?.offerCode;
      if (code && !this.input.value) {
        this.input.value = code;
        void this.apply();
      }
    });
  }

  disconnectedCallback(): void {
    this.closest('form')?.removeEventListener('change', this.onPlanChange);
  }

  /** Looks the code up; a valid one is what the next checkout redeems. */
  async apply(): Promise<void> {
    const sdk = await whenSdk();
    const code = this.input.value.trim();
    this.terms = null;
    sdk.offerCode = undefined;
    if (!code) return this.say('', 'neutral');
    this.say('Checking the code…', 'neutral');
    try {
      this.terms = await sdk.getOffer(code);
      await this.show();
    } catch (err) {
      this.say(REFUSALS[errorOf(err).code ?? ''] ?? 'The code could not be checked. Try again.', 'refused');
    }
  }

  private async show(): Promise<void> {
    if (!this.terms) return;
    const form = this.closest('form');
    const chosen = form ? new FormData(form).get('priceId') : null;
    const price = (await offeredPrices()).find((p) => p.id === chosen);
    const text = price ? offerTermsText(this.terms, price) : null;
    // Only an offer for the chosen plan goes to the checkout; another plan may take it again.
    (await whenSdk()).offerCode = text ? this.terms.code : undefined;
    this.say(text ?? 'This code is not for the chosen plan.', text ? 'applied' : 'refused');
  }

  private say(text: string, tone: 'neutral' | 'applied' | 'refused'): void {
    this.status.textContent = text;
    this.status.dataset['tone'] = tone;
  }
}

/** Registers `<gatehouse-offer-code>` unless a page did already. */
export function defineOfferCode(): void {
  if (!customElements.get('gatehouse-offer-code')) customElements.define('gatehouse-offer-code', OfferCode);
}
