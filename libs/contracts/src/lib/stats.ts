import type { AccessCounts, OrganisationReads, ShareCounts } from './access';
import type { GiftCounts, OfferRedemptions, PurchaseCounts } from './billing';
import type { CancellationStats } from './cancellation';
import { requestPattern } from './patterns';

/* The stats view (decisions H5), composed by admin from the owners' rollups (access, billing). */

export const STATS_INTERVALS = ['day', 'hour'] as const;
export type StatsInterval = (typeof STATS_INTERVALS)[number];

export interface StatsRequest {
  publicationId: string;
  /** ISO 8601, rounded down to the start of its hour or day (UTC). */
  from: string;
  /** ISO 8601, exclusive. */
  to: string;
  interval: StatsInterval;
}

/** Paywall conversions per impression: `converted / shown`, null without impressions. */
export interface Funnel extends AccessCounts {
  conversionRate: number | null;
}

export interface StatsBucket extends Funnel {
  start: string;
  newSubscriptions: number;
  cancelledSubscriptions: number;
}

/** A two-proportion z-test of a variant's checkout conversion against the experiment's first variant. */
export interface Significance {
  baselineVariantId: string;
  zScore: number;
  /** Two-sided. */
  pValue: number;
  /** pValue below 0.05. */
  significant: boolean;
}

export interface VariantStats extends Funnel {
  experimentId: string;
  experimentName: string | null;
  variantId: string;
  variantName: string | null;
  paywallId: string;
  /** Checkouts completed with this variant in their metadata (decisions H4). */
  checkouts: number;
  /** `checkouts / shown`, null without impressions. */
  checkoutRate: number | null;
  /** Null for the baseline itself, or while either side has no impressions. */
  significance: Significance | null;
}

export interface Stats {
  from: string;
  to: string;
  interval: StatsInterval;
  totals: Funnel & {
    newSubscriptions: number;
    cancelledSubscriptions: number;
    /** Customers holding a live subscription at `to`. */
    activeSubscribers: number;
    /** Minor units per currency at `to`; yearly prices count 1/12, lifetime ones nothing. */
    mrr: Array<{ currency: string; amount: number }>;
  };
  series: StatsBucket[];
  paywalls: Array<Funnel & { paywallId: string; name: string | null }>;
  variants: VariantStats[];
  /** Subscriptions started with an offer within the range, per offer, most redeemed first. */
  offers: OfferRedemptions[];
  /** Why readers cancelled, the save offers shown and accepted, and win-back email and its conversions, in the range. */
  cancellation: CancellationStats;
  /** Passes and single articles bought within the range. */
  purchases: PurchaseCounts;
  /** Share links subscribers created and the reads they granted in the range (docs/access.md#shared-articles). */
  sharing: ShareCounts;
  /** Gifts paid for and redeemed in the range (docs/billing.md#gift-subscriptions). */
  gifts: GiftCounts;
}

/** An organisation's stats (issue #26 item 5, docs/organisations.md#stats): its seats, readers and reads in a range. */
export interface OrganisationStatsRequest {
  publicationId: string;
  organisationId: string;
  /** ISO 8601, rounded down to the start of its day (UTC). */
  from: string;
  /** ISO 8601, exclusive. */
  to: string;
}

export interface OrganisationStats {
  organisationId: string;
  name: string;
  from: string;
  to: string;
  /** Null: unlimited. */
  seats: number | null;
  /** Seats held now. */
  seatsUsed: number;
  readers: {
    /** Members holding a seat now. */
    members: number;
    /** Distinct readers the organisation let in within the range, by a seat or a network. */
    granted: number;
  };
  /** Checks granted with `reason: organisation` for it within the range. */
  reads: OrganisationReads['reads'];
}

export const StatsRequests = {
  GetStats: requestPattern<StatsRequest, Stats>('admin.stats.get'),
  /** 404 not_found for another publication's organisation; 400 validation_failed for a bad range. */
  GetOrganisationStats: requestPattern<OrganisationStatsRequest, OrganisationStats>('admin.stats.organisation'),
} as const;
