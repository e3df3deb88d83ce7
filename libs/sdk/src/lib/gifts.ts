import type { GiftCheckoutView, GiftMonths, GiftRedemption } from '@gatehouse/contracts';
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

/** Buying and redeeming gifts: kept out of gatehouse.js, `/sdk/v1/gift.js` adds them to the page's client (a bundler's `installGifts` does the same). */
export interface GiftMethods {
  /** Starts the gift's checkout, as the signed-in reader if any: send the buyer to its `url`. */
  buyGift(order: GiftOrder): Promise<GiftCheckoutView>;
  /** Redeems a gift's code (from its email's link) for the signed-in reader: a subscription ending after the gift's months. Rejects with `not_found`, `gift_voided` or `gift_redeemed`. */
  redeemGift(code: string): Promise<GiftRedemption>;
}

export function installGifts(gatehouse: Gatehouse): Gatehouse & GiftMethods {
  const client = gatehouse as Gatehouse & GiftMethods;
  if (typeof client.buyGift === 'function') return client;
  const methods: GiftMethods = {
    buyGift: (order) => gatehouse.authorized('/gifts', { body: order }, false),
    redeemGift: (code) => gatehouse.authorized('/gifts/redeem', { body: { code } }),
  };
  return Object.assign(client, methods);
}
