import type { RedeemedOffer } from './offers';
import { changeNotice, eventType } from './patterns';

/*
 * The outbound events of spec 6.2 (delivered to publishers' webhooks) and the internal events the
 * services use among themselves. All `data` keys are camelCase. docs/events.md documents each.
 */

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Spec 2.6, plus the flags named in the event rules of spec 6. */
/**
 * The reasons a reader may give for cancelling: the processor's own `cancellation_details.feedback`
 * values, so that a cancellation made in its portal reads the same.
 */
export const CANCELLATION_REASONS = ['too_expensive', 'unused', 'switched_service', 'missing_features', 'low_quality', 'too_complex', 'customer_service', 'other'] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/** `gift`: redeemed from a gift, ending at its fixed end without renewal. */
export const SUBSCRIPTION_SOURCES = ['processor', 'manual', 'gift'] as const;
export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCES)[number];

export interface SubscriptionEventData {
  subscriptionId: string;
  customerId: string;
  priceId: string;
  status: SubscriptionStatus;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  source: SubscriptionSource;
  cancelAtPeriodEnd: boolean;
  trialStart: string | null;
  trialEnd: string | null;
  /** Why the reader cancelled (one of CANCELLATION_REASONS, as they picked it or the processor's portal recorded it); null when nobody said. */
  cancellationReason: CancellationReason | null;
  /** Present when the subscription was started with an offer's code. */
  offer?: RedeemedOffer;
  /** While collection is paused: when it resumes (ISO 8601 UTC); null when not paused. */
  pausedUntil: string | null;
  /** A plan change waiting for the period end (a downgrade, by default); null when none. */
  scheduledChange: ScheduledPlanChange | null;
  /** On `subscription.updated` when the price changed: the price before. */
  previousPriceId?: string;
}

/** A price switch that takes effect at `effectiveAt` (the current period's end). */
export interface ScheduledPlanChange {
  priceId: string;
  effectiveAt: string;
}

export interface InvoiceEventData {
  /** Null for `invoice.upcoming`: the processor has not created that invoice yet. */
  invoiceId: string | null;
  subscriptionId: string | null;
  customerId: string | null;
  amountDue: number;
  amountPaid: number;
  currency: string;
  nextPaymentAttempt?: string | null;
}

export interface CustomerEventData {
  customerId: string;
  email: string;
  name: string;
  emailVerified: boolean;
  /** ISO 8601 UTC. */
  createdAt: string;
}

export interface VisitorEventData {
  visitorId: string | null;
  customerId: string | null;
  url: string;
  paywallId: string | null;
  occurredAt: string;
}

export interface NewsletterSubscribeData extends VisitorEventData {
  email: string | null;
  data: Record<string, unknown>;
}

/**
 * The names of the fields the reader filled in, never their values: events, the outbox and
 * webhook delivery rows are kept past what a reader's erasure reaches, so nothing personal rides
 * in them. The values stay on the publisher's page (the elements' `data-submit` DOM event).
 */
export interface DataSubmitData extends VisitorEventData {
  fields: string[];
}

export interface PaywallEventData extends VisitorEventData {
  experimentId: string | null;
  variantId: string | null;
}

export interface ExperimentEventData {
  experimentId: string;
  variantId: string;
  paywallId: string;
  visitorId: string | null;
  customerId: string | null;
}

/** A subscriber created a share link (docs/access.md#shared-articles); never the token. */
export interface ShareCreatedData {
  shareLinkId: string;
  customerId: string;
  url: string;
  maxOpens: number;
  expiresAt: string;
}

/** A share link opened its page for a reader. */
export interface ShareOpenedData {
  shareLinkId: string;
  /** The sharer. */
  customerId: string;
  url: string;
  /** The reader who opened it: their visitor id and customer, when known. */
  visitorId: string | null;
  readerCustomerId: string | null;
  opens: number;
  maxOpens: number;
  occurredAt: string;
}

/** A one-time purchase (docs/billing.md#passes-and-single-articles): a time pass, or one article for good. */
export interface PurchaseEventData {
  purchaseId: string;
  customerId: string;
  priceId: string;
  kind: 'pass' | 'single_article';
  /** A single article: the page bought (as the checkout named it); null for a pass. */
  url: string | null;
  /** When it was paid: the pass grants from then. */
  startsAt: string;
  /** A pass: when it stops granting; null for a single article (for good). */
  endsAt: string | null;
}

/** A gift's payment went through (docs/billing.md#gift-subscriptions); nothing personal: no addresses, no message. */
export interface GiftPurchasedData {
  giftId: string;
  priceId: string;
  productId: string;
  months: number;
  amount: number;
  currency: string;
  /** The buyer, when signed in. */
  buyerCustomerId: string | null;
  /** When the recipient is emailed (ISO). */
  sendAt: string;
}

/** A reader redeemed a gift: the subscription it made ends at `endsAt`. */
export interface GiftRedeemedData {
  giftId: string;
  customerId: string;
  subscriptionId: string;
  priceId: string;
  months: number;
  endsAt: string;
}

/** An organisation as it is after the change (before it, for `organisation.deleted`). */
export interface OrganisationEventData {
  organisationId: string;
  name: string;
  productId: string;
  seats: number | null;
  seatsUsed: number;
  startsAt: string;
  endsAt: string | null;
  domains: string[];
  ipRanges: string[];
}

/**
 * A seat taken or freed. `via`: how the member joined. `reason` (member_removed): `removed` by a
 * manager or staff, `email_changed` (a domain member whose email left the domain), `organisation_deleted`.
 */
export interface OrganisationMemberEventData {
  organisationId: string;
  organisationName: string;
  customerId: string;
  email: string;
  via: 'invitation' | 'domain';
  seats: number | null;
  seatsUsed: number;
  reason?: 'removed' | 'email_changed';
}

/** An invitation's email was queued; never its token. */
export interface OrganisationMemberInvitedData {
  organisationId: string;
  organisationName: string;
  invitationId: string;
  email: string;
  expiresAt: string;
}

export const Events = {
  NewsletterSubscribe: eventType<NewsletterSubscribeData>('newsletter.subscribe'),
  DataSubmit: eventType<DataSubmitData>('data.submit'),
  SubscriptionCreated: eventType<SubscriptionEventData>('subscription.created'),
  SubscriptionUpdated: eventType<SubscriptionEventData>('subscription.updated'),
  SubscriptionCancelled: eventType<SubscriptionEventData>('subscription.cancelled'),
  SubscriptionTrialEnded: eventType<SubscriptionEventData>('subscription.trial_ended'),
  SubscriptionPaused: eventType<SubscriptionEventData>('subscription.paused'),
  SubscriptionResumed: eventType<SubscriptionEventData>('subscription.resumed'),
  InvoicePaid: eventType<InvoiceEventData>('invoice.paid'),
  InvoicePaymentFailed: eventType<InvoiceEventData>('invoice.payment_failed'),
  InvoiceUpcoming: eventType<InvoiceEventData>('invoice.upcoming'),
  CustomerCreated: eventType<CustomerEventData>('customer.created'),
  CustomerUpdated: eventType<CustomerEventData>('customer.updated'),
  CustomerVerified: eventType<CustomerEventData>('customer.verified'),
  CustomerDeleted: eventType<CustomerEventData>('customer.deleted'),
  PaywallShown: eventType<PaywallEventData>('paywall.shown'),
  PaywallDismissed: eventType<PaywallEventData>('paywall.dismissed'),
  PaywallConverted: eventType<PaywallEventData>('paywall.converted'),
  ExperimentAssigned: eventType<ExperimentEventData>('experiment.assigned'),
  ExperimentConverted: eventType<ExperimentEventData>('experiment.converted'),
  ShareCreated: eventType<ShareCreatedData>('share.created'),
  ShareOpened: eventType<ShareOpenedData>('share.opened'),
  PassPurchased: eventType<PurchaseEventData>('pass.purchased'),
  ArticlePurchased: eventType<PurchaseEventData>('article.purchased'),
  GiftPurchased: eventType<GiftPurchasedData>('gift.purchased'),
  GiftRedeemed: eventType<GiftRedeemedData>('gift.redeemed'),
  OrganisationCreated: eventType<OrganisationEventData>('organisation.created'),
  OrganisationUpdated: eventType<OrganisationEventData>('organisation.updated'),
  OrganisationDeleted: eventType<OrganisationEventData>('organisation.deleted'),
  OrganisationMemberInvited: eventType<OrganisationMemberInvitedData>('organisation.member_invited'),
  OrganisationMemberJoined: eventType<OrganisationMemberEventData>('organisation.member_joined'),
  OrganisationMemberRemoved: eventType<OrganisationMemberEventData>('organisation.member_removed'),
} as const;

/** The events a publisher can subscribe an outbound webhook to (spec 6.2). */
export type OutboundEventName = (typeof Events)[keyof typeof Events]['name'];
export const OUTBOUND_EVENT_NAMES: readonly string[] = Object.values(Events).map((e) => e.name);

/** Internal events: never delivered to publishers. */
export interface ApiKeyRevokedData {
  keyIds: string[];
  /** SHA-256 hashes of the revoked keys, so caches keyed by hash can drop them without a lookup. */
  keyHashes: string[];
}

export interface EntitlementsChangedData {
  customerId: string;
}

export const InternalEvents = {
  /** Every gateway replica forgets the keys at once. */
  ApiKeyRevoked: changeNotice<ApiKeyRevokedData>('internal.api_key.revoked'),
  /** Every access replica forgets what billing said of the customer's subscriptions. */
  EntitlementsChanged: changeNotice<EntitlementsChangedData>('internal.entitlements.changed'),
  /** Every gateway replica refuses the customer's still-unexpired access tokens. */
  CustomerDeleted: changeNotice<{ customerId: string }>('internal.customer.deleted'),
  /** Every access replica forgets the rules of the envelope's publication: a paywall, segment, experiment or the crawler policy changed. */
  AccessRulesChanged: changeNotice<Record<string, never>>('internal.access.rules.changed'),
  /** Every gateway replica forgets the publication's keys, whose lookups carry its domains and self-registration setting. */
  PublicationChanged: changeNotice<{ publicationId: string }>('internal.publication.changed'),
  /** Every access and gateway replica forgets the IP ranges of the envelope's publication's organisations. */
  OrganisationNetworksChanged: changeNotice<Record<string, never>>('internal.organisations.networks.changed'),
} as const;
