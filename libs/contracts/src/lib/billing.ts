import type { SegmentReader } from './access';
import type { CancellationStats } from './cancellation';
import type { OrganisationTerm } from './organisations';
import type { CancellationReason, PurchaseEventData, SubscriptionEventData, SubscriptionStatus } from './events';
import type { Page, PageRequest } from './pagination';
import { eventType, requestPattern } from './patterns';

/*
 * Billing: products, prices, subscriptions, processor settings and inbound processor events
 * (spec 2.5, 2.6, 3, 4.3, 4.5; decisions F, H2). docs/billing.md describes the behaviour.
 */

/**
 * What may let a customer through a paywall, as access decides on it (decisions E6): a
 * subscription, or a one-time purchase (a time pass, a single article).
 */
export type CustomerEntitlement = SubscriptionEntitlement | PurchaseEntitlement;

/** One subscription as access needs it to decide whether a customer is a subscriber (decisions E6). */
export interface SubscriptionEntitlement {
  kind: 'subscription';
  /** Null for a seat in an organisation. */
  subscriptionId: string | null;
  /** The organisation whose seat this is (docs/organisations.md), with its term (the decision compares it with the check's time); absent for a subscription. */
  organisation?: { organisationId: string; name: string } & OrganisationTerm;
  status: SubscriptionStatus;
  /** When the subscription became past_due (ISO), for the grace period; null otherwise. */
  pastDueSince: string | null;
  currentPeriodEnd: string;
  /** Paywall ids the subscription's product unlocks; empty means every paywall. */
  paywallIds: string[];
  /** The publication's grace period for past_due subscriptions, in days, when it set one; access's PAST_DUE_GRACE_DAYS otherwise. */
  pastDueGraceDays?: number;
}

/** What a one-time purchase buys: a time pass (every page its product unlocks, until it ends), or one page for good. */
export const PURCHASE_KINDS = ['pass', 'single_article'] as const;
export type PurchaseKind = (typeof PURCHASE_KINDS)[number];

/** A one-time purchase that still grants (issue #25 item 4; docs/billing.md#passes-and-single-articles). */
export interface PurchaseEntitlement {
  kind: PurchaseKind;
  purchaseId: string;
  /** A pass: when it stops granting (ISO); a single article: null, it never does. */
  endsAt: string | null;
  /** A single article: the page it opens, as access keys a page (`pageKeyOf`); null for a pass. */
  pageKey: string | null;
  /** Paywall ids the pass's product unlocks; empty means every paywall. A single article opens its page under any paywall. */
  paywallIds: string[];
}

/**
 * `currentPeriodEnd` of a subscription that never ends (a lifetime price, or a manual grant
 * without an end): spec 2.6 makes the field a timestamp, so "never" is the last one there is.
 */
export const NEVER_ENDS = '9999-12-31T23:59:59.999Z';

/**
 * `month` and `year` recur; the others are paid once (the processor's `one_time` prices, bought
 * in a payment-mode checkout): `lifetime` buys a subscription that never ends, `pass` grants for
 * `passHours`, `single_article` opens the page the checkout was started for, for good.
 */
export const PRICE_INTERVALS = ['month', 'year', 'lifetime', 'pass', 'single_article'] as const;
export type PriceInterval = (typeof PRICE_INTERVALS)[number];

/** The longest time pass: a year. */
export const MAX_PASS_HOURS = 8760;

/** Whether a price is paid once (a payment-mode checkout) rather than recurring. */
export function isOneTime(interval: PriceInterval): boolean {
  return interval !== 'month' && interval !== 'year';
}

/** Whether a price buys a purchase (a pass or a single article) rather than a subscription. */
export function isPurchase(interval: PriceInterval): interval is PurchaseKind {
  return interval === 'pass' || interval === 'single_article';
}

/** Decisions F1. */
export interface ProductView {
  id: string;
  name: string;
  description: string | null;
  /** Paywall ids the product unlocks; empty means every paywall. */
  entitlements: string[];
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ProductChanges {
  name?: string;
  description?: string | null;
  entitlements?: string[];
  active?: boolean;
}

/** Decisions F1: immutable but for `active`. */
export interface PriceView {
  id: string;
  productId: string;
  /** ISO 4217, lower case. */
  currency: string;
  /** Minor units (cents). */
  unitAmount: number;
  interval: PriceInterval;
  trialDays: number;
  /** A pass price: how many hours the pass grants (1-8760); null otherwise. */
  passHours: number | null;
  active: boolean;
  createdAt: string;
}

export interface NewPrice {
  currency: string;
  unitAmount: number;
  interval: PriceInterval;
  trialDays?: number;
  /** Required for a `pass` price, refused for any other. */
  passHours?: number;
  active?: boolean;
}

/** Decisions F2: secrets are write-only and shown masked, e.g. `sk_...1234`. */
export interface ProcessorSettingsView {
  configured: boolean;
  secretKey: string | null;
  webhookSecret: string | null;
  /** The processor's id of the webhook endpoint this service created; null when the secret was supplied. */
  webhookEndpointId: string | null;
  /** Where the processor sends this publication's events. */
  webhookUrl: string;
  updatedAt: string | null;
  /** Under `npm start` with the local fake processor: a key it accepts, to connect with in one click; null elsewhere. */
  localTestKey: string | null;
}

/** Decisions F5: the fields of spec 2.6 with the flags of spec 6, and when the subscription was stored. */
export interface SubscriptionView extends SubscriptionEventData {
  createdAt: string;
}

/** `now`: at once, prorated by the processor; `period_end`: when the current period ends, nothing charged before. */
export const PLAN_CHANGE_TIMINGS = ['now', 'period_end'] as const;
export type PlanChangeTiming = (typeof PLAN_CHANGE_TIMINGS)[number];

/**
 * A switch of a subscription to another price of the publication. `when` defaults to `now` for an
 * upgrade and `period_end` for a downgrade (a cheaper monthly-equivalent amount). `customerId`:
 * the reader the subscription must belong to (a reader's own route); 404 otherwise.
 */
export interface PlanChangeRequest {
  publicationId: string;
  subscriptionId: string;
  priceId: string;
  when?: PlanChangeTiming;
  customerId?: string;
}

/** One line of what the processor would invoice for the change (minor units; credits negative). */
export interface PlanChangeLine {
  description: string;
  amount: number;
  proration: boolean;
  periodStart: string;
  periodEnd: string;
}

/** What a plan change would do, in money and dates, before it is made. */
export interface PlanChangePreview {
  subscriptionId: string;
  fromPriceId: string;
  toPriceId: string;
  direction: 'upgrade' | 'downgrade';
  when: PlanChangeTiming;
  /** When the new price applies: now, or the current period's end. */
  effectiveAt: string;
  currency: string;
  /** Charged when the change is made (0 at the period end; credits beyond the charge stay on the reader's balance). */
  amountDue: number;
  /** The processor's proration lines for a change now; empty at the period end. */
  lines: PlanChangeLine[];
  /** The first regular charge at the new price, and when. */
  nextAmount: number;
  nextChargeAt: string | null;
}

export interface PlanChangeResult {
  preview: PlanChangePreview;
  subscription: SubscriptionView;
}

export const PAUSE_MONTHS_MAX = 3;

/** `customerId`: as for plan changes. */
export interface PauseRequest {
  publicationId: string;
  subscriptionId: string;
  /** 1 to 3. */
  months: number;
  customerId?: string;
}

/** What readers of a paused subscription may read: `keep` (default) entitles them as before; `suspend` does not until it resumes. */
export const PAUSED_ACCESS_MODES = ['keep', 'suspend'] as const;
export type PausedAccess = (typeof PAUSED_ACCESS_MODES)[number];

/** The longest grace period a publication may give past_due subscribers. */
export const PAST_DUE_GRACE_DAYS_MAX = 60;

export interface SubscriptionSettingsView {
  pausedAccess: PausedAccess;
  /** Days a past_due subscription keeps access (0-60); null: the service's PAST_DUE_GRACE_DAYS. */
  pastDueGraceDays: number | null;
}

/** A change of the settings: what is absent stays as it is. */
export type SubscriptionSettingsChange = Partial<SubscriptionSettingsView>;

/** A price on sale (active, of an active product), as publishers' pages offer it: the paywalls' plans. */
export interface OfferedPriceView {
  id: string;
  productId: string;
  productName: string;
  currency: string;
  unitAmount: number;
  interval: PriceInterval;
  trialDays: number;
  passHours: number | null;
}

/** Decisions F6. */
export interface CheckoutRequest {
  publicationId: string;
  customerId: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  experimentId?: string;
  variantId?: string;
  /** The paywall that led to the checkout, carried into `experiment.converted`. */
  paywallId?: string;
  /** An offer's code (case-insensitive): its discount or trial applies at the processor. */
  offerCode?: string;
  /** The reader an offer limited to a segment is decided for (`customerId` is the checkout's). */
  reader: SegmentReader;
  /** A single-article price: the page it buys (required then, refused for any other price). */
  articleUrl?: string;
  /**
   * A group purchase (docs/organisations.md): this many seats (the processor line's quantity) of a
   * recurring price; once paid, an organisation of the price's product with the buyer as manager.
   */
  seats?: number;
  /** The organisation's name for a group purchase; the buyer's name otherwise. */
  organisationName?: string;
}

export interface CheckoutSessionView {
  url: string;
  sessionId: string;
}

export const CHECKOUT_STATES = ['complete', 'processing', 'open', 'expired'] as const;
/**
 * Where a checkout stands at the processor: `complete` (paid, or nothing to pay: the subscription
 * is recorded), `processing` (finished, the payment not cleared yet: its events bring the
 * subscription), `open` (not paid), `expired` (abandoned).
 */
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

/** A returning reader's checkout, asked of the processor and recorded when paid (docs/billing.md). */
export interface CheckoutConfirmation {
  sessionId: string;
  status: CheckoutState;
  /** The subscription the checkout bought, once `complete`; null otherwise (and for a pass or a single article). */
  subscription: SubscriptionView | null;
  /** The pass or single article the checkout bought, once `complete`; null otherwise. */
  purchase: PurchaseView | null;
}

/** A pass or single article bought (issue #25 item 4), as its events carry it. */
export type PurchaseView = PurchaseEventData;

/** A pass or single article in a customer's list of purchases: with the name of the product it is of (the reader's account, staff's customer page). */
export interface CustomerPurchaseView extends PurchaseView {
  productName: string;
}

/** The stats of decisions H5 that billing owns, per bucket of the interval (UTC). */
export interface BillingStatsBucket {
  /** ISO start of the bucket. */
  start: string;
  newSubscriptions: number;
  cancelledSubscriptions: number;
}

export interface BillingStats {
  buckets: BillingStatsBucket[];
  /** Customers holding a live (active, trialing or past_due) subscription at `to`. */
  activeSubscribers: number;
  /** Monthly recurring revenue at `to` in minor units per currency: yearly prices count 1/12, lifetime ones nothing. */
  mrr: Array<{ currency: string; amount: number }>;
  /** Checkouts completed within the range that carried an experiment variant. */
  checkoutsByVariant: Array<{ experimentId: string; variantId: string; checkouts: number }>;
  /** Subscriptions started with an offer within the range, per offer. */
  offerRedemptions: OfferRedemptions[];
  /** Cancellation reasons, save offers and win-back within the range. */
  cancellation: CancellationStats;
  purchases: PurchaseCounts;
  gifts: GiftCounts;
}

/** Passes and single articles bought within the range (issue #25 item 4). */
export interface PurchaseCounts {
  passes: number;
  singleArticles: number;
}

/** Gifts paid for and gifts redeemed within the range. */
export interface GiftCounts {
  purchased: number;
  redeemed: number;
}

export interface OfferRedemptions {
  offerId: string;
  code: string;
  redemptions: number;
}

export const BillingRequests = {
  /** Every subscription of the customer that is not cancelled, with what it unlocks. */
  GetEntitlements: requestPattern<{ publicationId: string; customerId: string }, { entitlements: CustomerEntitlement[] }>(
    'billing.entitlements.get',
  ),

  ListProducts: requestPattern<{ publicationId: string } & PageRequest, Page<ProductView>>('billing.products.list'),
  GetProduct: requestPattern<{ publicationId: string; productId: string }, ProductView>('billing.products.get'),
  /** 502 processor_error when the processor refuses it; nothing is stored then. */
  CreateProduct: requestPattern<
    { publicationId: string; name: string; description?: string | null; entitlements?: string[]; active?: boolean },
    ProductView
  >('billing.products.create'),
  UpdateProduct: requestPattern<{ publicationId: string; productId: string; changes: ProductChanges }, ProductView>('billing.products.update'),
  /** 409 conflict while a subscription uses one of its prices. */
  DeleteProduct: requestPattern<{ publicationId: string; productId: string }, { deleted: true }>('billing.products.delete'),

  ListPrices: requestPattern<{ publicationId: string; productId: string } & PageRequest, Page<PriceView>>('billing.prices.list'),
  GetPrice: requestPattern<{ publicationId: string; priceId: string }, PriceView>('billing.prices.get'),
  CreatePrice: requestPattern<{ publicationId: string; productId: string; price: NewPrice }, PriceView>('billing.prices.create'),
  UpdatePrice: requestPattern<{ publicationId: string; priceId: string; active: boolean }, PriceView>('billing.prices.update'),
  /** 409 conflict while a subscription uses it. */
  /** The publication's prices on sale, cheapest first (the key's publication: publishers' pages read it). */
  ListOffer: requestPattern<{ publicationId: string }, { prices: OfferedPriceView[] }>('billing.offer.list'),
  DeletePrice: requestPattern<{ publicationId: string; priceId: string }, { deleted: true }>('billing.prices.delete'),

  GetProcessorSettings: requestPattern<{ publicationId: string }, ProcessorSettingsView>('billing.processor-settings.get'),
  /** Without `webhookSecret`, creates the webhook endpoint at the processor and stores its secret (decisions F2). */
  SaveProcessorSettings: requestPattern<{ publicationId: string; secretKey: string; webhookSecret?: string }, ProcessorSettingsView>(
    'billing.processor-settings.save',
  ),

  ListSubscriptions: requestPattern<
    { publicationId: string; customerId?: string; status?: SubscriptionStatus } & PageRequest,
    Page<SubscriptionView>
  >('billing.subscriptions.list'),
  GetSubscription: requestPattern<{ publicationId: string; subscriptionId: string }, SubscriptionView>('billing.subscriptions.get'),
  /** Decisions F5: newest first, cancelled ones included. 404 when the customer is not in the publication. */
  CustomerSubscriptions: requestPattern<{ publicationId: string; customerId: string }, { subscriptions: SubscriptionView[] }>(
    'billing.subscriptions.of-customer',
  ),
  /** The customer's passes and single articles, newest first, ended passes included. 404 when the customer is not in the publication. */
  CustomerPurchases: requestPattern<{ publicationId: string; customerId: string }, { purchases: CustomerPurchaseView[] }>('billing.purchases.of-customer'),
  /** Decisions F9: `source: "manual"`; emits `subscription.created`. */
  GrantSubscription: requestPattern<
    { publicationId: string; customerId: string; priceId: string; currentPeriodEnd?: string },
    SubscriptionView
  >('billing.subscriptions.grant'),
  /**
   * Decisions F8. With `customerId` (a reader cancelling their own) a subscription of anyone else
   * is 404 `not_found`. `reason` is recorded and sent to the processor as its cancellation feedback.
   */
  CancelSubscription: requestPattern<
    { publicationId: string; subscriptionId: string; atPeriodEnd: boolean; customerId?: string; reason?: CancellationReason },
    SubscriptionView
  >(
    'billing.subscriptions.cancel',
  ),

  /** Asks the processor what the change would cost (a change now) or states the period end; changes nothing. */
  PreviewPlanChange: requestPattern<PlanChangeRequest, PlanChangePreview>('billing.subscriptions.plan-change.preview'),
  /** Makes the change at the processor (now), or records it for the period end; 502 processor_error changes nothing. */
  ChangePlan: requestPattern<PlanChangeRequest, PlanChangeResult>('billing.subscriptions.plan-change.make'),
  /** Pauses collection at the processor for `months` (1-3); access follows the publication's `pausedAccess`. */
  PauseSubscription: requestPattern<PauseRequest, SubscriptionView>('billing.subscriptions.pause'),
  /** Resumes a paused subscription now. */
  ResumeSubscription: requestPattern<{ publicationId: string; subscriptionId: string; customerId?: string }, SubscriptionView>('billing.subscriptions.resume'),
  GetSubscriptionSettings: requestPattern<{ publicationId: string }, SubscriptionSettingsView>('billing.subscription-settings.get'),
  SaveSubscriptionSettings: requestPattern<{ publicationId: string } & SubscriptionSettingsChange, SubscriptionSettingsView>('billing.subscription-settings.save'),

  CreateCheckout: requestPattern<CheckoutRequest, CheckoutSessionView>('billing.checkout.create'),
  /**
   * Asks the processor about a checkout the customer started here and, when it is paid, records it
   * exactly as its `checkout.session.completed` event would (either may come first; the second
   * changes nothing). 404 when the session is not a checkout of this customer in this publication.
   */
  ConfirmCheckout: requestPattern<{ publicationId: string; customerId: string; sessionId: string }, CheckoutConfirmation>('billing.checkout.confirm'),
  /** Decisions F7. 404 when the customer has no account at the processor yet. */
  CreatePortal: requestPattern<{ publicationId: string; customerId: string; returnUrl: string }, { url: string }>('billing.portal.create'),

  /**
   * An inbound processor webhook, exactly as received: `payload` is the raw body, base64 (gzip
   * compressed first when `gzip`, so a body near 1 MiB fits NATS's default 1 MiB message). 400
   * signature_invalid unless `signature` (the Stripe-Signature header) verifies against the
   * publication's webhook secret, or PROCESSOR_WEBHOOK_SECRET when `publicationId` is null.
   */
  ReceiveProcessorEvent: requestPattern<{ publicationId: string | null; payload: string; gzip?: boolean; signature: string | null }, { received: true }>(
    'billing.processor-events.receive',
  ),

  /** For the stats view (decisions H5); `from` and `to` are ISO timestamps, `to` exclusive. */
  GetStats: requestPattern<{ publicationId: string; from: string; to: string; interval: 'day' | 'hour' }, BillingStats>('billing.stats.get'),
} as const;

/** Billing's own queue: an inbound processor event, verified and recorded, waiting to be processed. */
export interface ProcessorEventReceivedData {
  /** The publication whose secret verified the event, or `environment` for PROCESSOR_WEBHOOK_SECRET. */
  scope: string;
  eventId: string;
}

export const BillingInternalEvents = {
  ProcessorEventReceived: eventType<ProcessorEventReceivedData>('internal.billing.processor_event.received'),
} as const;
