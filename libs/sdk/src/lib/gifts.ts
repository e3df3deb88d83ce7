import type { GiftCheckoutView, GiftMonths } from '@gatehouse/contracts';
import type { Gatehouse } from './gatehouse';

/** A gift as the buyer orders it (docs/sdk.md#gifts). */
export interface GiftOrder {
  priceId: string;
  months: GiftMonths;
  recipientEmail: string;
  recipientName: string;
  buyerName: string;
  /** Required unless the buyer is signed in. */
  buyerEmail?: string;
  /** ISO date or date-time; now when absent. */
  sendAt?: string;
  message?: string;
  successUrl: string;
  cancelUrl: string;
  /** The page with `<gatehouse-account>` where the recipient redeems. */
  redeemUrl?: string;
}

/** Buying a gift: kept out of gatehouse.js, `/sdk/v1/gift.js` adds it to the page's client (a bundler's `installGifts` does the same). */
export interface GiftMethods {
  /** Starts the gift's checkout, as the signed-in reader if any: send the buyer to its `url`. */
  buyGift(order: GiftOrder): Promise<GiftCheckoutView>;
}

export function installGifts(gatehouse: Gatehouse): Gatehouse & GiftMethods {
  const client = gatehouse as Gatehouse & GiftMethods;
  if (typeof client.buyGift === 'function') return client;
  const methods: GiftMethods = { buyGift: (order) => gatehouse.authorized<GiftCheckoutView>('/gifts', { body: order }, false) };
  return Object.assign(client, methods);
}
