import type { AccessCheckResult, ExperimentView, PaywallView, Stats, StatsInterval } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import type { Call } from './support/http';
import { SteerableClock } from './support/billing';
import { SITE, WholeSystem, type Reader } from './support/system-all';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const BUCKET_MS: Record<StatsInterval, number> = { hour: HOUR_MS, day: DAY_MS };

type Counter = 'checksGranted' | 'checksDenied' | 'crawlerChecks' | 'shown' | 'dismissed' | 'converted';
type Counts = Record<Counter, number>;
const TRACKED: Record<'paywall_shown' | 'paywall_dismissed' | 'paywall_converted', Counter> = {
  paywall_shown: 'shown',
  paywall_dismissed: 'dismissed',
  paywall_converted: 'converted',
};

const zero = (): Counts => ({ checksGranted: 0, checksDenied: 0, crawlerChecks: 0, shown: 0, dismissed: 0, converted: 0 });
const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const funnel = (counts: Counts) => ({ ...counts, conversionRate: rate(counts.converted, counts.shown) });
const floorTo = (time: number, size: number) => Math.floor(time / size) * size;

/** What the test did, counted as it did it: the figures the stats view must show. */
class Tally {
  readonly totals = zero();
  readonly paywalls = new Map<string, Counts>();
  readonly variants = new Map<string, Counts>();
  readonly checkouts = new Map<string, number>();
  readonly subscriptions: Array<{ customerId: string; currency: string; monthly: number; cancelled: boolean }> = [];

  count(counter: Counter, paywallId: string | null, variantId?: string): void {
    this.totals[counter] += 1;
    if (paywallId) bump(this.paywalls, paywallId, counter);
    if (variantId) bump(this.variants, variantId, counter);
  }

  /** `monthly`: what the subscription adds to MRR (nothing for a grant or a trial). */
  subscribed(reader: Reader, currency: string, monthly: number, variantId?: string): void {
    this.subscriptions.push({ customerId: reader.id, currency, monthly, cancelled: false });
    if (variantId) this.checkouts.set(variantId, (this.checkouts.get(variantId) ?? 0) + 1);
  }

  cancelled(reader: Reader): void {
    const subscription = this.subscriptions.find((s) => s.customerId === reader.id) as { cancelled: boolean };
    subscription.cancelled = true;
  }

  get live() {
    return this.subscriptions.filter((s) => !s.cancelled);
  }

  get mrr(): Array<{ currency: string; amount: number }> {
    const byCurrency = new Map<string, number>();
    for (const s of this.live) if (s.monthly > 0) byCurrency.set(s.currency, (byCurrency.get(s.currency) ?? 0) + s.monthly);
    return [...byCurrency].map(([currency, amount]) => ({ currency, amount })).sort((a, b) => a.currency.localeCompare(b.currency));
  }
}

function bump(counts: Map<string, Counts>, key: string, counter: Counter): void {
  const row = counts.get(key) ?? zero();
  row[counter] += 1;
  counts.set(key, row);
}

/**
 * The pooled two-proportion z-test of `successes / trials`, written out independently of the
 * service: the two-sided p-value from erf by its Taylor series.
 */
function twoProportion(baseline: { successes: number; trials: number }, variant: { successes: number; trials: number }) {
  const pooled = (baseline.successes + variant.successes) / (baseline.trials + variant.trials);
  const zScore = (variant.successes / variant.trials - baseline.successes / baseline.trials) / Math.sqrt(pooled * (1 - pooled) * (1 / baseline.trials + 1 / variant.trials));
  const x = Math.abs(zScore) / Math.SQRT2;
  let erf = 0;
  for (let n = 0, term = x; n < 80; n++, term *= (-x * x) / n) erf += term / (2 * n + 1);
  const pValue = 1 - (2 / Math.sqrt(Math.PI)) * erf;
  return { zScore, pValue };
}

/**
 * The stats view (decisions H5): admin composes access's rollups and billing's figures. The test
 * scripts access checks, track events and subscription changes through the gateway and the fake
 * processor, keeps its own count of each, and reads `GET /api/v1/admin/stats` by day and by hour.
 */
describe('the stats view: access and billing composed by admin', () => {
  /**
   * Access and billing read real time moved back to one second past the start of this hour, so the
   * whole file (well under a minute) falls in one hour and one day, whenever it runs.
   */
  const clock = new SteerableClock();
  clock.advance(floorTo(Date.now(), HOUR_MS) + 1000 - Date.now());
  const tally = new Tally();
  let system: WholeSystem;
  let alpha: PaywallView;
  let beta: PaywallView;
  let experiment: ExperimentView;

  const stats = (query: Record<string, string>, options: Call = {}) => system.admin<Stats>(`/admin/stats?${new URLSearchParams(query)}`, options);
  /** A range by `interval` that starts mid-bucket a few buckets back and ends a bucket or two ahead. */
  const rangeOf = (interval: StatsInterval) => {
    const now = clock.now().getTime();
    const size = BUCKET_MS[interval];
    return { interval, from: new Date(now - 3 * size).toISOString(), to: new Date(floorTo(now, size) + 2 * size).toISOString() };
  };

  beforeAll(async () => {
    system = await WholeSystem.start({ clock });
    [alpha, beta] = await Promise.all([
      system.paywall({ name: 'Alpha', type: 'metered', config: { limit: 1, period: 'month' }, match: { include: ['/alpha/**'] } }),
      system.paywall({ name: 'Beta', type: 'hard', match: { include: ['/beta/**'] } }),
    ]);
    const created = await system.admin<ExperimentView>('/admin/experiments', {
      body: {
        name: 'Alpha test',
        paywallId: alpha.id,
        variants: [
          { name: 'Control', weight: 1 },
          { name: 'Tight', weight: 1, overrides: { copy: { heading: 'Your last free article' } } },
        ],
      },
    });
    expect(created.status).toBe(201);
    experiment = created.body;
    expect((await system.admin(`/admin/experiments/${experiment.id}/start`, { method: 'POST' })).status).toBe(200);
    await script();
  }, 60_000);

  afterAll(() => system?.close());

  /** An access check whose decision is as expected, counted for the paywall covering the page and the variant assigned. */
  async function check(path: string, paywallId: string | null, expected: Partial<AccessCheckResult>, query: Record<string, string> = {}, options: Call = {}) {
    const result = await system.decision({ url: path, ...query }, options);
    expect(result).toMatchObject(expected);
    if (result.experiment) expect(result.experiment.experimentId).toBe(experiment.id);
    tally.count(result.granted ? 'checksGranted' : 'checksDenied', paywallId, result.experiment?.variantId);
    return result;
  }

  async function script(): Promise<void> {
    const [control, tight] = experiment.variants;
    const [eurProduct, usdProduct] = await Promise.all([system.product({ name: 'Digital' }), system.product({ name: 'Digital US' })]);
    const [eurMonthly, eurTrial, usdYearly] = await Promise.all([
      system.price(eurProduct.id, { currency: 'eur', unitAmount: 900, interval: 'month' }),
      system.price(eurProduct.id, { currency: 'eur', unitAmount: 700, interval: 'month', trialDays: 14 }),
      system.price(usdProduct.id, { currency: 'usd', unitAmount: 12000, interval: 'year' }),
    ]);

    // Subscriptions: checkouts carrying a variant, a grant, a trial, one cancelled now and one at the period end.
    const withVariant = (variantId: string) => ({ experimentId: experiment.id, variantId, paywallId: alpha.id });
    const [buyer, yearly, quitter, granted, trialist, leaving] = await Promise.all(Array.from({ length: 6 }, () => system.reader()));
    await system.subscribe(buyer, eurMonthly.id, withVariant(control.id));
    tally.subscribed(buyer, 'eur', 900, control.id);
    await system.subscribe(yearly, usdYearly.id, withVariant(tight.id));
    tally.subscribed(yearly, 'usd', 12000 / 12, tight.id);
    const { subscriptionId: quitting } = await system.subscribe(quitter, eurMonthly.id, withVariant(control.id));
    tally.subscribed(quitter, 'eur', 900, control.id);
    await system.grant(granted, eurMonthly.id);
    tally.subscribed(granted, 'eur', 0);
    expect(await system.subscribe(trialist, eurTrial.id)).toMatchObject({ status: 'trialing' });
    tally.subscribed(trialist, 'eur', 0);
    const { subscriptionId: scheduled } = await system.subscribe(leaving, eurMonthly.id);
    tally.subscribed(leaving, 'eur', 900);
    const cancel = (subscriptionId: string, atPeriodEnd: boolean) => system.api('/subscriptions/cancel', { key: system.secretKey, body: { subscriptionId, atPeriodEnd } });
    expect((await cancel(quitting, false)).body).toMatchObject({ status: 'cancelled' });
    tally.cancelled(quitter);
    expect((await cancel(scheduled, true)).body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });

    // Checks on Alpha (metered, one free page, the experiment): each visitor is granted a page, then refused the next,
    // until both variants have at least three visitors.
    const visitors: Array<{ userId: string; variantId: string }> = [];
    const inVariant = (variantId: string) => visitors.filter((v) => v.variantId === variantId);
    while (inVariant(control.id).length < 3 || inVariant(tight.id).length < 3) {
      if (visitors.length >= 40) throw new Error('the experiment assigns every visitor to one variant');
      const userId = `visitor-${randomUUID()}`;
      const first = await check('/alpha/one', alpha.id, { granted: true, reason: 'meter_allowance' }, { userId });
      await check('/alpha/two', alpha.id, { granted: false, reason: 'blocked', experiment: first.experiment }, { userId });
      visitors.push({ userId, variantId: first.experiment!.variantId });
    }
    // A visitor without identity has no meter left and no variant; a subscriber passes, in their variant.
    await check('/alpha/one', alpha.id, { granted: false, reason: 'blocked' });
    await check('/alpha/one', alpha.id, { granted: true, reason: 'subscriber' }, { userId: `visitor-${randomUUID()}` }, { token: buyer.accessToken });
    // Checks on Beta (hard): refused twice, a subscriber let through; and a page no paywall covers.
    await check('/beta/story', beta.id, { granted: false, reason: 'blocked' });
    await check('/beta/story', beta.id, { granted: false, reason: 'blocked' }, {}, { token: quitter.accessToken });
    await check('/beta/story', beta.id, { granted: true, reason: 'subscriber' }, {}, { token: yearly.accessToken });
    await check('/free/story', null, { granted: true, reason: 'no_rule' });

    // Track events: three Alpha visitors of each variant were shown the paywall in their variant (2 of 3 and 1 of 3 then
    // checked out), every other one dismissed it, every third converted; Beta's and an anonymous Alpha impression carry no variant.
    const events: object[] = [];
    const track = (type: keyof typeof TRACKED, paywallId: string, variantId?: string) => {
      events.push({ type, url: `${SITE}/story`, paywallId, ...(variantId ? { experimentId: experiment.id, variantId } : {}) });
      tally.count(TRACKED[type], paywallId, variantId);
    };
    [...inVariant(control.id).slice(0, 3), ...inVariant(tight.id).slice(0, 3)].forEach(({ variantId }, i) => {
      track('paywall_shown', alpha.id, variantId);
      if (i % 2 === 0) track('paywall_dismissed', alpha.id, variantId);
      if (i % 3 === 0) track('paywall_converted', alpha.id, variantId);
    });
    track('paywall_shown', alpha.id);
    for (const type of ['paywall_shown', 'paywall_shown', 'paywall_shown', 'paywall_dismissed', 'paywall_converted'] as const) track(type, beta.id);
    for (let i = 0; i < events.length; i += 50) expect((await system.track({ events: events.slice(i, i + 50) })).status).toBe(202);
  }

  /**
   * The figures the test counted, as the stats view must show them for that range, each variant's
   * significance measured against `baselineId`.
   */
  function expected(range: { interval: StatsInterval; from: string; to: string }, baselineId: string): Stats {
    const size = BUCKET_MS[range.interval];
    const now = clock.now().getTime();
    const starts: number[] = [];
    for (let start = floorTo(Date.parse(range.from), size); start < Date.parse(range.to); start += size) starts.push(start);
    const newSubscriptions = tally.subscriptions.length;
    const cancelledSubscriptions = tally.subscriptions.filter((s) => s.cancelled).length;
    const baseline = experiment.variants.find((v) => v.id === baselineId)!;
    const variantFigures = (variantId: string) => {
      const counts = tally.variants.get(variantId) ?? zero();
      return { counts, checkouts: tally.checkouts.get(variantId) ?? 0 };
    };
    return {
      from: new Date(starts[0]).toISOString(),
      to: range.to,
      interval: range.interval,
      totals: {
        ...funnel(tally.totals),
        newSubscriptions,
        cancelledSubscriptions,
        activeSubscribers: new Set(tally.live.map((s) => s.customerId)).size,
        mrr: tally.mrr,
      },
      series: starts.map((start) =>
        start <= now && now < start + size
          ? { start: new Date(start).toISOString(), ...funnel(tally.totals), newSubscriptions, cancelledSubscriptions }
          : { start: new Date(start).toISOString(), ...funnel(zero()), newSubscriptions: 0, cancelledSubscriptions: 0 },
      ),
      paywalls: [alpha, beta].map((p) => ({ paywallId: p.id, name: p.name, ...funnel(tally.paywalls.get(p.id)!) })),
      variants: experiment.variants.map((variant) => {
        const { counts, checkouts } = variantFigures(variant.id);
        const base = variantFigures(baseline.id);
        const test = twoProportion({ successes: base.checkouts, trials: base.counts.shown }, { successes: checkouts, trials: counts.shown });
        return {
          experimentId: experiment.id,
          experimentName: experiment.name,
          variantId: variant.id,
          variantName: variant.name,
          paywallId: alpha.id,
          ...funnel(counts),
          checkouts,
          checkoutRate: rate(checkouts, counts.shown),
          significance:
            variant === baseline
              ? null
              : { baselineVariantId: baseline.id, zScore: expect.closeTo(test.zScore, 6), pValue: expect.closeTo(test.pValue, 6), significant: test.pValue < 0.05 },
        };
      }),
      offers: [],
      purchases: { passes: 0, singleArticles: 0 },
      sharing: { linksCreated: 0, opens: 0, conversions: 0 },
      cancellation: { reasons: [], saves: [], winBack: { sent: 0, conversions: 0 } },
      gifts: { purchased: 0, redeemed: 0 },
    };
  }

  /** The answer with its unordered lists in a fixed order. */
  const normalised = (body: Stats) => ({
    ...body,
    totals: { ...body.totals, mrr: [...body.totals.mrr].sort((a, b) => a.currency.localeCompare(b.currency)) },
    paywalls: [...body.paywalls].sort((a, b) => [alpha.id, beta.id].indexOf(a.paywallId) - [alpha.id, beta.id].indexOf(b.paywallId)),
    variants: [...body.variants].sort((a, b) => experiment.variants.findIndex((v) => v.id === a.variantId) - experiment.variants.findIndex((v) => v.id === b.variantId)),
  });

  /** The variant the answer measures the others against, which must be one of the experiment's. */
  it.each(['day', 'hour'] as const)('shows by %s every figure the test counted: totals, the series, per paywall and per variant against the first variant', async (interval) => {
    const range = rangeOf(interval);
    const answer = await stats(range);
    expect(answer.status).toBe(200);
    expect(normalised(answer.body)).toEqual(expected(range, experiment.variants[0].id));
  });

  it('lets a viewer read the same figures', async () => {
    const range = rangeOf('hour');
    const { session: viewer } = await system.staffSession('viewer', system.publicationId);
    const answer = await stats(range, { session: viewer });
    expect(answer.status).toBe(200);
    expect(normalised(answer.body)).toEqual(expected(range, experiment.variants[0].id));
  });

  it("shows another publication's session only that publication's figures: none", async () => {
    const range = rangeOf('day');
    const { session } = await system.otherPublicationSession();
    const answer = await stats(range, { session });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      from: expect.any(String),
      to: range.to,
      interval: 'day',
      totals: { ...funnel(zero()), newSubscriptions: 0, cancelledSubscriptions: 0, activeSubscribers: 0, mrr: [] },
      series: expected(range, experiment.variants[0].id).series.map((bucket) => ({ ...bucket, ...funnel(zero()), newSubscriptions: 0, cancelledSubscriptions: 0 })),
      paywalls: [],
      variants: [],
      offers: [],
      purchases: { passes: 0, singleArticles: 0 },
      sharing: { linksCreated: 0, opens: 0, conversions: 0 },
      cancellation: { reasons: [], saves: [], winBack: { sent: 0, conversions: 0 } },
      gifts: { purchased: 0, redeemed: 0 },
    });
  });

  it('refuses a range beyond the limits, an empty or inverted one, and an unknown interval: 400 validation_failed', async () => {
    const to = clock.now().getTime();
    const iso = (time: number) => new Date(time).toISOString();
    const range = expect.stringMatching(/^(from|to)$/);
    const refused: Array<[Record<string, string>, unknown]> = [
      [{ interval: 'hour', from: iso(to - 31 * DAY_MS - 1000), to: iso(to) }, range],
      [{ interval: 'day', from: iso(to - 366 * DAY_MS - 1000), to: iso(to) }, range],
      [{ interval: 'day', from: iso(to), to: iso(to) }, range],
      [{ interval: 'hour', from: iso(to), to: iso(to - HOUR_MS) }, range],
      [{ interval: 'week', from: iso(to - DAY_MS), to: iso(to) }, 'interval'],
      [{ interval: 'day', from: 'yesterday', to: iso(to) }, 'from'],
    ];
    for (const [query, field] of refused) expect((await stats(query)).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field }] });
    // The limits themselves are allowed.
    expect((await stats({ interval: 'hour', from: iso(to - 31 * DAY_MS), to: iso(to) })).status).toBe(200);
    expect((await stats({ interval: 'day', from: iso(to - 366 * DAY_MS), to: iso(to) })).status).toBe(200);
  });

  it('needs a staff session: an API key is not one', async () => {
    expect((await system.api('/admin/stats', { key: system.secretKey })).body).toMatchObject({ status: 401, code: 'session_required' });
  });
});
