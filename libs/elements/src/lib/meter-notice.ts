import { css, html, nothing, type CSSResultGroup, type PropertyDeclarations } from 'lit';
import { pageAuthModal } from './auth';
import { GatehouseElement, sharedStyles } from './base';
import { resolveCopy } from './copy';
import { fill, plural } from './messages';
import { onAccess, type AccessResult } from './sdk';

/**
 * `<gatehouse-meter-notice>`: while a metered wall lets the reader through, how many free
 * articles are left in the meter's period ("2 free articles left this month"), from the page's
 * access result; with `register`, a link to create a free account for a reader not signed in.
 * On a page a share link opened, who shared it ("Ada shared this article with you.") and the
 * paywall's call to subscribe. Nothing once the wall shows, for a subscriber, or on a page no
 * meter covers.
 */
export class MeterNotice extends GatehouseElement {
  static override elementName = 'meter-notice' as const;
  static override styles: CSSResultGroup = [
    sharedStyles,
    css`
      p {
        margin: 0;
        padding: 8px 12px;
        border-inline-start: 4px solid var(--gh-primary);
        background: #f6f6f9;
        border-radius: var(--gh-radius);
      }
    `,
  ];
  static override properties: PropertyDeclarations = {
    ...GatehouseElement.properties,
    ...GatehouseElement.brandingProperties('meter-notice'),
    register: { type: Boolean },
    access: { state: true },
  };

  declare register: boolean;
  declare access: AccessResult | null;
  private unsubscribe?: () => void;

  constructor() {
    super();
    this.register = false;
    this.access = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = onAccess((result) => (this.access = result));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  override render() {
    const access = this.access;
    if (access?.granted && access.reason === 'shared_link' && access.sharedBy) return this.sharedNotice(access.sharedBy.firstName);
    const meter = access?.granted ? access.meter : undefined;
    if (!meter) return nothing;
    const m = this.messages;
    const period = m.meterPeriod[meter.period];
    const own = resolveCopy('meter-notice', 'meterNoticeText', this.attributeValues(), this.fetched);
    const text =
      meter.remaining > 0 ? (own ? fill(own, { remaining: meter.remaining, limit: meter.limit }) : plural(m.meterLeft, meter.remaining, this.locale, { period })) : fill(m.meterLast, { period });
    const prompt =
      this.register && !access?.customerId
        ? html` <button type="button" class="link" part="register-link" @click=${() => void pageAuthModal().show('register')}>${this.copy('meterRegisterText')}</button>`
        : nothing;
    return this.frame(html`${this.logo()}<p part="notice" role="status">${text}${prompt}</p>`);
  }

  private sharedNotice(name: string) {
    const subscribe = html` <button type="button" class="link" part="subscribe-link" @click=${() => void pageAuthModal().show('register')}>${this.copy('paywallCtaText')}</button>`;
    return this.frame(html`${this.logo()}<p part="notice" role="status">${fill(this.messages.sharedBy, { name })}${subscribe}</p>`);
  }
}
