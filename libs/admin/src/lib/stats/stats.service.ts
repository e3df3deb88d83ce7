import { Injectable } from '@nestjs/common';
import {
  AccessRequests,
  BillingRequests,
  OrganisationRequests,
  type AccessCounts,
  type Funnel,
  type OrganisationStats,
  type OrganisationStatsRequest,
  type Stats,
  type StatsRequest,
  type VariantStats,
} from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { twoProportionTest } from './significance';

const SIGNIFICANCE_LEVEL = 0.05;

const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const funnel = <T extends AccessCounts>(counts: T): T & Funnel => ({ ...counts, conversionRate: rate(counts.converted, counts.shown) });

/** The stats view: access's rollups and billing's figures over the same range, composed here (decisions H5). */
@Injectable()
export class StatsService {
  constructor(private readonly bus: BusClient) {}

  /**
   * An organisation's stats (docs/organisations.md#stats): its seats from billing (which refuses
   * another publication's organisation before anything is read), its reads and readers from access.
   */
  async organisation({ publicationId, organisationId, from, to }: OrganisationStatsRequest): Promise<OrganisationStats> {
    const organisation = await this.bus.request(OrganisationRequests.Get, { publicationId, organisationId });
    const counted = await this.bus.request(AccessRequests.GetOrganisationReads, { publicationId, organisationId, from, to });
    return {
      organisationId,
      name: organisation.name,
      from: counted.from,
      to: counted.to,
      seats: organisation.seats,
      seatsUsed: organisation.seatsUsed,
      readers: { members: organisation.seatsUsed, granted: counted.readers },
      reads: counted.reads,
    };
  }

  async stats(request: StatsRequest): Promise<Stats> {
    const [access, billing] = await Promise.all([
      this.bus.request(AccessRequests.GetStats, request),
      this.bus.request(BillingRequests.GetStats, request),
    ]);
    const billingBuckets = new Map(billing.buckets.map((b) => [b.start, b]));
    const checkouts = new Map(billing.checkoutsByVariant.map((c) => [`${c.experimentId}/${c.variantId}`, c.checkouts]));
    const sum = (key: 'newSubscriptions' | 'cancelledSubscriptions') => billing.buckets.reduce((total, b) => total + b[key], 0);

    return {
      from: access.from,
      to: access.to,
      interval: access.interval,
      totals: {
        ...funnel(access.totals),
        newSubscriptions: sum('newSubscriptions'),
        cancelledSubscriptions: sum('cancelledSubscriptions'),
        activeSubscribers: billing.activeSubscribers,
        mrr: billing.mrr,
      },
      series: access.series.map((bucket) => ({
        ...funnel(bucket),
        newSubscriptions: billingBuckets.get(bucket.start)?.newSubscriptions ?? 0,
        cancelledSubscriptions: billingBuckets.get(bucket.start)?.cancelledSubscriptions ?? 0,
      })),
      paywalls: access.paywalls.map(funnel),
      offers: billing.offerRedemptions,
      cancellation: billing.cancellation,
      purchases: billing.purchases,
      sharing: access.sharing,
      gifts: billing.gifts,
      variants: withSignificance(
        access.variants.map((v) => {
          const variantCheckouts = checkouts.get(`${v.experimentId}/${v.variantId}`) ?? 0;
          return { ...funnel(v), checkouts: variantCheckouts, checkoutRate: rate(variantCheckouts, v.shown), significance: null };
        }),
      ),
    };
  }
}

/** Each variant against the first variant of its experiment (the order access lists them in). */
function withSignificance(variants: VariantStats[]): VariantStats[] {
  const baselines = new Map<string, VariantStats>();
  for (const v of variants) if (!baselines.has(v.experimentId)) baselines.set(v.experimentId, v);
  return variants.map((v) => {
    const baseline = baselines.get(v.experimentId);
    if (!baseline || baseline === v) return v;
    const test = twoProportionTest({ successes: baseline.checkouts, trials: baseline.shown }, { successes: v.checkouts, trials: v.shown });
    return test ? { ...v, significance: { baselineVariantId: baseline.variantId, ...test, significant: test.pValue < SIGNIFICANCE_LEVEL } } : v;
  });
}
