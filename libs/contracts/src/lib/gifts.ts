import type { SubscriptionView } from './billing';
import type { Page, PageRequest } from './pagination';
import { requestPattern } from './patterns';

/*
 * Gift subscriptions (issue #25 item 2): a buyer pays once for some months of a product; the
 * recipient redeems the emailed code for a subscription with a fixed end. Billing owns them;
 * docs/billing.md#gift-subscriptions describes the behaviour.
 */

/** The lengths a gift may have, in months. */
export const GIFT_MONTHS = [1, 3, 6, 12] as const;
export type GiftMonths = (typeof GIFT_MONTHS)[number];

/**
 * `pending`: its checkout is not paid yet; `purchased`: paid, waiting for its send date or for the
 * recipient; `redeemed`: a subscription was made of it; `voided`: refunded or cancelled before
 * redemption, its code refused.
 */
export const GIFT_STATUSES = ['pending', 'purchased', 'redeemed', 'voided'] as const;
export type GiftStatus = (typeof GIFT_STATUSES)[number];

/** Why a gift was voided: its payment was given back (at the processor, or by staff's void of a paid gift), or staff cancelled one not paid. */
export type GiftVoidReason = 'refunded' | 'cancelled';

/** The fragment parameter of a gift email's link: the account element on that page redeems the code. */
export const GIFT_LINK_PARAMETER = 'gatehouse-gift';

/** Days before a gift subscription ends that its reader is reminded, with an offer to continue. */
export const GIFT_REMINDER_DAYS = 7;

/** A gift as staff see it (never its code). */
export interface GiftView {
  id: string;
  status: GiftStatus;
  priceId: string;
  productId: string;
  productName: string;
  months: GiftMonths;
  /** What the buyer paid, minor units of `currency`. */
  amount: number;
  currency: string;
  buyerEmail: string;
  /** The buyer's customer id when they were signed in. */
  buyerCustomerId: string | null;
  recipientEmail: string;
  recipientName: string;
  /** When the recipient's email is due (ISO). */
  sendAt: string;
  emailedAt: string | null;
  purchasedAt: string | null;
  redeemedAt: string | null;
  /** The reader who redeemed it, and the subscription it made. */
  redeemedBy: string | null;
  subscriptionId: string | null;
  voidedAt: string | null;
  voidReason: GiftVoidReason | null;
  createdAt: string;
}

/** A buyer's gift: one of the publication's monthly or yearly prices for `months`, paid once. */
export interface GiftPurchase {
  publicationId: string;
  priceId: string;
  months: GiftMonths;
  recipientEmail: string;
  recipientName: string;
  /** When to email the recipient (ISO); now when absent or past. */
  sendAt?: string;
  /** A few words from the buyer, shown in the email as plain text. */
  message?: string;
  /** The buyer's name as the email shows it. */
  buyerName: string;
  /** Required unless the buyer is signed in (`customerId`). */
  buyerEmail?: string;
  /** The signed-in buyer. */
  customerId?: string;
  successUrl: string;
  cancelUrl: string;
  /** The page with the account element that redeems the code (the email's link); the publication's first domain when absent. */
  redeemUrl?: string;
}

/** The checkout to send the buyer to, and what it charges. */
export interface GiftCheckoutView {
  giftId: string;
  url: string;
  sessionId: string;
  amount: number;
  currency: string;
}

export interface GiftRedemption {
  giftId: string;
  productName: string;
  months: GiftMonths;
  subscription: SubscriptionView;
}

export const GiftRequests = {
  /** 404 for a price not on sale; 409 when the publication has no processor settings; 502 processor_error stores nothing. */
  PurchaseGift: requestPattern<GiftPurchase, GiftCheckoutView>('billing.gifts.purchase'),
  /**
   * The reader redeems a code: a subscription of the gift's price, `source: gift`, ending after its
   * months. The same reader again gets the same answer; 404 for an unknown code (or another
   * publication's), 410 gift_voided, 409 gift_redeemed by someone else.
   */
  RedeemGift: requestPattern<{ publicationId: string; customerId: string; code: string }, GiftRedemption>('billing.gifts.redeem'),
  ListGifts: requestPattern<{ publicationId: string } & PageRequest, Page<GiftView>>('billing.gifts.list'),
  GetGift: requestPattern<{ publicationId: string; giftId: string }, GiftView>('billing.gifts.get'),
  /** Staff cancel a gift before it is redeemed: its code is refused from now on, and a paid one's payment is refunded at the processor (502 processor_error when it refuses: the gift stays as it was). 409 gift_redeemed once redeemed; voiding a voided one changes nothing. */
  VoidGift: requestPattern<{ publicationId: string; giftId: string }, GiftView>('billing.gifts.void'),
} as const;
