import type { AccessCheckResult, PaywallView } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import { SteerableClock } from './support/billing';
import { WholeSystem, type Reader } from './support/system-all';

const HOUR_MS = 3_600_000;
const GRACE_DAYS = 3;

/**
 * Access decisions for subscribers (decisions E6) across the services: subscriptions made in
 * billing (dashboard grants, and checkouts paid at the fake processor whose signed events reach
 * the webhook), decided on by access through the gateway, as a publisher's site sees them.
 */
describe('access decisions for subscribers', () => {
  /** The time access and billing read: the real time, moved on when a test says so. */
  const clock = new SteerableClock();
  let system: WholeSystem;
  let premium: PaywallView;
  let sport: PaywallView;
  /** Prices of a product whose entitlements are empty (every paywall), with and without a trial, and of a product unlocking `premium` only. */
  let everything: { id: string };
  let everythingWithTrial: { id: string };
  let premiumOnly: { id: string };

  beforeAll(async () => {
    system = await WholeSystem.start({ clock, accessEnv: { PAST_DUE_GRACE_DAYS: String(GRACE_DAYS) } });
    [premium, sport] = await Promise.all([
      system.paywall({ name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } }),
      system.paywall({ name: 'Sport', type: 'hard', match: { include: ['/sport/**'] } }),
      system.paywall({ name: 'Meter', type: 'metered', config: { limit: 1, period: 'month' }, match: { include: ['/metered/**'] } }),
    ]);
    const [all, premiumProduct] = await Promise.all([system.product({ name: 'Everything' }), system.product({ name: 'Premium only', entitlements: [premium.id] })]);
    [everything, everythingWithTrial, premiumOnly] = await Promise.all([
      system.price(all.id, { currency: 'eur', unitAmount: 900, interval: 'month' }),
      system.price(all.id, { currency: 'eur', unitAmount: 900, interval: 'month', trialDays: 14 }),
      system.price(premiumProduct.id, { currency: 'eur', unitAmount: 500, interval: 'month' }),
    ]);
  }, 60_000);

  afterAll(() => system?.close());

  const subscriber = (reader: Reader): AccessCheckResult => ({ granted: true, reason: 'subscriber', customerId: reader.id });
  const blockedBy = (paywall: PaywallView) => ({ granted: false, reason: 'blocked', paywallRule: expect.objectContaining({ paywallId: paywall.id }) });

  it('lets an active subscriber through a hard and a metered paywall: reason subscriber, no paywallRule, no meter', async () => {
    const granted = await system.reader();
    await system.grant(granted, everything.id);
    const paying = await system.reader();
    expect(await system.subscribe(paying, everything.id)).toMatchObject({ status: 'active' });
    for (const reader of [granted, paying]) {
      expect(await system.decisionFor(reader, '/premium/story')).toEqual(subscriber(reader));
      expect(await system.decisionFor(reader, '/metered/a')).toEqual(subscriber(reader));
      expect(await system.decisionFor(reader, '/metered/b')).toEqual(subscriber(reader));
    }
    // Without a subscription the same reader would be turned away.
    const nobody = await system.reader();
    expect(await system.decisionFor(nobody, '/premium/story')).toEqual({ ...blockedBy(premium), customerId: nobody.id });
  });

  it('lets a trialing subscriber through the same way', async () => {
    const reader = await system.reader();
    expect(await system.subscribe(reader, everythingWithTrial.id)).toMatchObject({ status: 'trialing' });
    expect(await system.decisionFor(reader, '/premium/story')).toEqual(subscriber(reader));
  });

  it(`lets a past_due subscriber through for ${GRACE_DAYS} days (PAST_DUE_GRACE_DAYS), and not after`, async () => {
    const reader = await system.reader();
    const { processorId } = await system.subscribe(reader, everything.id);
    await system.deliverOk(await system.fake.invoiceEvent(processorId, 'invoice.payment_failed', { created: system.processorNow() + 1 }));
    await system.eventuallyStatus(reader, 'past_due');
    expect(await system.decisionFor(reader, '/premium/story')).toEqual(subscriber(reader));

    const moved = { ms: 0 };
    const moveOn = (ms: number) => {
      clock.advance(ms);
      moved.ms += ms;
    };
    try {
      moveOn(GRACE_DAYS * 24 * HOUR_MS - HOUR_MS);
      expect(await system.decisionFor(reader, '/premium/story')).toEqual(subscriber(reader));
      moveOn(2 * HOUR_MS);
      expect(await system.decisionFor(reader, '/premium/story')).toEqual({ ...blockedBy(premium), customerId: reader.id });
    } finally {
      clock.advance(-moved.ms);
    }
  });

  it('blocks a reader whose subscription the processor cancelled', async () => {
    const reader = await system.reader();
    const { processorId } = await system.subscribe(reader, everything.id);
    await system.deliverOk(await system.fake.deleteSubscription(processorId, { created: system.processorNow() + 1 }));
    await system.eventuallyStatus(reader, 'cancelled');
    expect(await system.decisionFor(reader, '/premium/story')).toEqual({ ...blockedBy(premium), customerId: reader.id });
  });

  it("opens only the paywalls the product's entitlements list, and every paywall when they are empty", async () => {
    const premiumReader = await system.reader();
    await system.grant(premiumReader, premiumOnly.id);
    expect(await system.decisionFor(premiumReader, '/premium/story')).toEqual(subscriber(premiumReader));
    expect(await system.decisionFor(premiumReader, '/sport/match')).toEqual({ ...blockedBy(sport), customerId: premiumReader.id });

    const allReader = await system.reader();
    await system.grant(allReader, everything.id);
    expect(await system.decisionFor(allReader, '/premium/story')).toEqual(subscriber(allReader));
    expect(await system.decisionFor(allReader, '/sport/match')).toEqual(subscriber(allReader));
  });

  it("sees a change in billing at the reader's next check: cancelled now, then granted again", async () => {
    const reader = await system.reader();
    const { subscriptionId } = await system.subscribe(reader, everything.id);
    // This answer is now what access holds for the reader.
    expect(await system.decisionFor(reader, '/premium/story')).toEqual(subscriber(reader));

    const cancelled = await system.api('/subscriptions/cancel', { key: system.secretKey, body: { subscriptionId, atPeriodEnd: false } });
    expect(cancelled).toMatchObject({ status: 200, body: { subscriptionId, status: 'cancelled' } });
    // Well within the 60 s access may keep an answer: only billing's event can have dropped it.
    await eventually(async () => ((await system.decisionFor(reader, '/premium/story')).granted ? undefined : true), 5_000);
    expect(await system.decisionFor(reader, '/premium/story')).toEqual({ ...blockedBy(premium), customerId: reader.id });

    await system.grant(reader, premiumOnly.id);
    await eventually(async () => ((await system.decisionFor(reader, '/premium/story')).granted ? true : undefined), 5_000);
    expect(await system.decisionFor(reader, '/premium/story')).toEqual(subscriber(reader));
  });

  it("follows the publication's pausedAccess while collection is paused: keep still entitles; suspend denies until the reader resumes", async () => {
    const reader = await system.reader();
    const { subscriptionId } = await system.subscribe(reader, everything.id);
    const settings = (session: string, body?: object) => system.api('/admin/subscription-settings', { session, ...(body ? { method: 'PUT', body } : {}) });
    const asReader = (path: string, body: object) => system.api(path, { key: system.publishableKey, token: reader.accessToken, body });
    expect((await settings(system.session)).body).toEqual({ pausedAccess: 'keep', pastDueGraceDays: null });

    const paused = await asReader('/subscriptions/pause', { subscriptionId, months: 1 });
    expect(paused).toMatchObject({ status: 200, body: { status: 'active', pausedUntil: expect.any(String) } });
    expect(await system.decisionFor(reader, '/premium/story')).toEqual(subscriber(reader));

    // Staff who may not write, and a value that is not a mode, change nothing.
    const viewer = await system.staffSession('viewer');
    expect((await settings(viewer.session, { pausedAccess: 'suspend' })).body).toMatchObject({ status: 403, code: 'forbidden' });
    expect((await settings(system.session, { pausedAccess: 'sometimes' })).body).toMatchObject({ status: 400, errors: [{ field: 'pausedAccess' }] });
    expect((await settings(system.session)).body).toEqual({ pausedAccess: 'keep', pastDueGraceDays: null });
    expect(await system.decisionFor(reader, '/premium/story')).toEqual(subscriber(reader));

    expect((await settings(system.session, { pausedAccess: 'suspend' })).body).toEqual({ pausedAccess: 'suspend', pastDueGraceDays: null });
    // Another publication's setting is its own.
    expect((await settings((await system.otherPublicationSession()).session)).body).toEqual({ pausedAccess: 'keep', pastDueGraceDays: null });
    await eventually(async () => ((await system.decisionFor(reader, '/premium/story')).granted ? undefined : true), 5_000);
    expect(await system.decisionFor(reader, '/premium/story')).toEqual({ ...blockedBy(premium), customerId: reader.id });

    expect(await asReader('/subscriptions/resume', { subscriptionId })).toMatchObject({ status: 200, body: { pausedUntil: null } });
    await eventually(async () => ((await system.decisionFor(reader, '/premium/story')).granted ? true : undefined), 5_000);
    expect(await system.decisionFor(reader, '/premium/story')).toEqual(subscriber(reader));
    await settings(system.session, { pausedAccess: 'keep' });
  });

  it('applies a segment of subscribers (subscriber eq true) to a subscriber, and not to anyone else', async () => {
    const segment = await system.admin('/admin/segments', {
      body: { name: 'Subscribers', match: 'all', conditions: [{ attribute: 'subscriber', operator: 'eq', value: true }] },
    });
    expect(segment.status).toBe(201);
    const members = await system.paywall({ name: 'Members', type: 'hard', match: { include: ['/members/**'] }, segmentId: segment.body.id });

    // A subscriber whose product does not unlock this paywall: the segment takes them, so the paywall applies and blocks.
    const premiumReader = await system.reader();
    await system.grant(premiumReader, premiumOnly.id);
    expect(await system.decisionFor(premiumReader, '/members/lounge')).toEqual({ ...blockedBy(members), customerId: premiumReader.id });
    // A subscriber of everything: the paywall applies, and lets them through.
    const allReader = await system.reader();
    await system.grant(allReader, everything.id);
    expect(await system.decisionFor(allReader, '/members/lounge')).toEqual(subscriber(allReader));
    // Not a subscriber: the segment does not take them, so no paywall applies.
    const nobody = await system.reader();
    expect(await system.decisionFor(nobody, '/members/lounge')).toEqual({ granted: true, reason: 'no_rule', customerId: nobody.id });
    expect(await system.decision({ url: '/members/lounge' })).toEqual({ granted: true, reason: 'no_rule', customerId: null });
  });
});
