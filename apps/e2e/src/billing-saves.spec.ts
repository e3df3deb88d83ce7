import { ScheduledPlanChanges } from '@gatehouse/billing';
import { BillingRequests, CANCELLATION_REASONS } from '@gatehouse/contracts';
import { BillingSystem, SteerableClock, type Customer } from './support/billing';

const DAY_MS = 24 * 3_600_000;

/**
 * Cancellation that tries to save (issue #27 item 2): staff's reasons and save offers, a reader's
 * cancellation flow through the gateway, each save applied at the fake processor as the processor
 * takes it, a declined save cancelling at the period end, and the counts in the stats.
 */
describe('billing: cancellation that tries to save', () => {
  const clock = new SteerableClock();
  let system: BillingSystem;
  let digital: any;
  let lite: any;
  let offer: any;
  const since = new Date(Date.now() - DAY_MS).toISOString();

  /** Every reason as staff set them here: a discount for the price, a pause for the unread, a cheaper plan for the missing features. */
  const settings = () => [
    { reason: 'too_expensive', label: 'Too dear <b>now</b>', enabled: true, save: { kind: 'discount', offerId: offer.id } },
    { reason: 'unused', label: null, enabled: true, save: { kind: 'pause', months: 2 } },
    { reason: 'missing_features', label: null, enabled: true, save: { kind: 'plan_change', priceId: lite.id } },
    { reason: 'other', label: null, enabled: true, save: null },
    ...['switched_service', 'low_quality', 'too_complex', 'customer_service'].map((reason) => ({ reason, label: null, enabled: false, save: null })),
  ];

  beforeAll(async () => {
    system = await BillingSystem.start(clock);
    await system.connectProcessor();
    digital = await system.price((await system.product({ name: 'Digital' })).id, { currency: 'eur', unitAmount: 900, interval: 'month' });
    lite = await system.price((await system.product({ name: 'Lite' })).id, { currency: 'eur', unitAmount: 500, interval: 'month' });
    offer = (await system.admin('/admin/offers', { body: { name: 'Stay with us', code: 'STAY50', kind: 'percent', percentOff: 50, duration: 'repeating', durationInMonths: 3 } })).body;
  }, 60_000);

  afterAll(() => system?.close());

  const options = (reader: Customer, subscriptionId: string) => system.api(`/subscriptions/cancellation-options?subscriptionId=${subscriptionId}`, { key: system.publishableKey, token: reader.accessToken });
  const accept = (reader: Customer, subscriptionId: string, reason: string) =>
    system.api('/subscriptions/cancel/save', { key: system.publishableKey, token: reader.accessToken, body: { subscriptionId, reason } });
  const updatesOf = (processorId: string) => system.fake.requestsTo('POST', `/v1/subscriptions/${processorId}`);

  it("starts with the processor's reasons, the usual six shown and no save offers; staff set labels, order and saves; a bad list is refused and changes nothing", async () => {
    const initial = await system.admin('/admin/cancellation-reasons');
    expect(initial.status).toBe(200);
    expect(initial.body.reasons.map((r: any) => r.reason)).toEqual([...CANCELLATION_REASONS]);
    expect(initial.body.reasons.filter((r: any) => r.enabled).map((r: any) => r.reason)).toEqual(['too_expensive', 'unused', 'switched_service', 'missing_features', 'low_quality', 'other']);
    expect(initial.body.reasons.every((r: any) => r.save === null && r.label === null)).toBe(true);

    const put = (reasons: unknown, session?: string) => system.admin('/admin/cancellation-reasons', { method: 'PUT', body: { reasons }, ...(session ? { session } : {}) });
    const trial = (await system.admin('/admin/offers', { body: { name: 'Free month', code: 'FREEMONTH', kind: 'trial', trialDays: 30 } })).body;
    const other = await system.otherPublicationSession();
    const elsewhere = (await system.api('/admin/offers', { session: other.session, body: { name: 'Theirs', code: 'THEIRS10', kind: 'percent', percentOff: 10, duration: 'once' } })).body;
    const refusals: unknown[] = [
      settings().slice(1),
      [...settings().slice(1), settings()[1]],
      settings().map((r, i) => (i === 0 ? { ...r, save: { kind: 'discount', offerId: trial.id } } : r)),
      settings().map((r, i) => (i === 1 ? { ...r, save: { kind: 'pause', months: 4 } } : r)),
      settings().map((r, i) => (i === 2 ? { ...r, save: { kind: 'plan_change' } } : r)),
      settings().map((r, i) => (i === 0 ? { ...r, label: 'x'.repeat(121) } : r)),
    ];
    for (const reasons of refusals) expect((await put(reasons)).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [expect.objectContaining({ field: expect.stringContaining('reasons') })] });
    expect((await put(settings().map((r, i) => (i === 0 ? { ...r, save: { kind: 'discount', offerId: elsewhere.id } } : r)))).body).toMatchObject({ status: 404, code: 'not_found' });
    const viewer = await system.staffSession('viewer');
    expect((await put(settings(), viewer.session)).status).toBe(403);
    expect((await system.admin('/admin/cancellation-reasons')).body).toEqual(initial.body);

    const saved = await put(settings());
    expect(saved).toMatchObject({ status: 200, body: { reasons: settings() } });
    expect((await system.admin('/admin/cancellation-reasons')).body).toEqual({ reasons: settings() });
    // Another publication's staff see their own defaults, not these.
    expect((await system.api('/admin/cancellation-reasons', { session: other.session })).body.reasons.every((r: any) => r.save === null)).toBe(true);
  });

  it("shows a reader the enabled reasons with each save offer as it applies to their subscription; another reader's or publication's answers 404", async () => {
    const reader = await system.reader();
    const { subscriptionId } = await system.subscribe(reader, digital.id);
    const answer = await options(reader, subscriptionId);
    expect(answer.status).toBe(200);
    expect(answer.body.reasons).toEqual([
      { reason: 'too_expensive', label: 'Too dear <b>now</b>', save: { kind: 'discount', offer: expect.objectContaining({ code: 'STAY50', kind: 'percent', percentOff: 50, duration: 'repeating', durationInMonths: 3 }) } },
      { reason: 'unused', label: null, save: { kind: 'pause', months: 2 } },
      { reason: 'missing_features', label: null, save: { kind: 'plan_change', price: expect.objectContaining({ id: lite.id, productName: 'Lite', unitAmount: 500, interval: 'month' }) } },
      { reason: 'other', label: null, save: null },
    ]);
    const stranger = await system.reader();
    expect((await options(stranger, subscriptionId)).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await accept(stranger, subscriptionId, 'too_expensive')).body).toMatchObject({ status: 404, code: 'not_found' });
    const elsewhere = await system.otherPublication();
    const foreign = await system.api('/subscriptions/cancel/save', { key: elsewhere.secretKey, body: { subscriptionId, reason: 'too_expensive' } });
    expect(foreign.body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await accept(reader, subscriptionId, 'other')).body).toMatchObject({ status: 409, code: 'conflict' });
    expect((await accept(reader, subscriptionId, 'bored')).body).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((await system.subscriptionsOf(reader.id))[0]).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, pausedUntil: null, scheduledChange: null });
  });

  it("applies the discount save to the subscription at the processor: the coupon's discount is on it and the next invoice is half; only once", async () => {
    const reader = await system.reader();
    const { subscriptionId, processorId } = await system.subscribe(reader, digital.id);
    const accepted = await accept(reader, subscriptionId, 'too_expensive');
    expect(accepted).toMatchObject({ status: 200, body: { kind: 'discount', subscription: { subscriptionId, status: 'active', cancelAtPeriodEnd: false } } });

    const [coupon] = await system.fake.requestsTo('POST', '/v1/coupons');
    expect(coupon.body).toMatchObject({ percent_off: '50', duration: 'repeating', duration_in_months: '3' });
    const update = (await updatesOf(processorId)).at(-1)!;
    expect(update.body).toEqual({ discounts: [{ coupon: expect.stringMatching(/.+/) }] });
    const atProcessor = await system.fake.object('subscription', processorId);
    expect(atProcessor['discounts']).toHaveLength(1);
    const discount = await system.fake.object('discount', atProcessor['discounts'][0]);
    expect(discount).toMatchObject({ subscription: processorId, source: { coupon: update.body.discounts[0].coupon } });
    const renewal = await system.fake.invoiceEvent(processorId, 'invoice.payment_succeeded');
    expect(renewal.data.object).toMatchObject({ amount_paid: 450 });

    expect((await accept(reader, subscriptionId, 'unused')).body).toMatchObject({ status: 409, code: 'conflict' });
    expect((await system.subscriptionsOf(reader.id))[0]).toMatchObject({ pausedUntil: null });
  });

  it('applies the pause save at the processor: collection paused for the months staff chose', async () => {
    const reader = await system.reader();
    const { subscriptionId, processorId } = await system.subscribe(reader, digital.id);
    const accepted = await accept(reader, subscriptionId, 'unused');
    expect(accepted).toMatchObject({ status: 200, body: { kind: 'pause', subscription: { subscriptionId, status: 'active', pausedUntil: expect.any(String) } } });
    const pausedUntil = new Date(accepted.body.subscription.pausedUntil).getTime();
    expect(pausedUntil - clock.now().getTime()).toBeGreaterThan(58 * DAY_MS);
    expect(pausedUntil - clock.now().getTime()).toBeLessThan(63 * DAY_MS);
    expect((await system.fake.object('subscription', processorId))['pause_collection']).toEqual({ behavior: 'void', resumes_at: pausedUntil / 1000 });
  });

  it('declining cancels at the period end with the reason, at the processor too; a save is refused after that', async () => {
    const reader = await system.reader();
    const { subscriptionId, processorId } = await system.subscribe(reader, digital.id);
    const cancelled = await system.api('/subscriptions/cancel', { key: system.publishableKey, token: reader.accessToken, body: { subscriptionId, reason: 'too_expensive' } });
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'active', cancelAtPeriodEnd: true, cancellationReason: 'too_expensive' } });
    expect((await updatesOf(processorId)).at(-1)!.body).toEqual({ cancel_at_period_end: 'true', cancellation_details: { feedback: 'too_expensive' } });
    expect((await system.fake.object('subscription', processorId))['discounts']).toEqual([]);
    const late = await accept(reader, subscriptionId, 'unused');
    expect(late.body).toMatchObject({ status: 409, code: 'conflict', detail: expect.stringContaining('already cancelled') });
    expect((await system.fake.object('subscription', processorId))['pause_collection']).toBeNull();
  });

  it('counts reasons, and save offers offered and accepted per kind, in the stats', async () => {
    const stats = await system.request(BillingRequests.GetStats, { publicationId: system.publicationId, from: since, to: new Date(Date.now() + 40 * DAY_MS).toISOString(), interval: 'day' });
    expect(stats.cancellation.reasons).toEqual(
      expect.arrayContaining([
        { reason: 'too_expensive', cancellations: 1, saved: 1 },
        { reason: 'unused', cancellations: 0, saved: 1 },
      ]),
    );
    expect(stats.cancellation.saves).toEqual([
      { kind: 'discount', offered: 2, accepted: 1 },
      { kind: 'pause', offered: 1, accepted: 1 },
    ]);
    const other = await system.otherPublication();
    const theirs = await system.request(BillingRequests.GetStats, { publicationId: other.publicationId, from: since, to: new Date(Date.now() + DAY_MS).toISOString(), interval: 'day' });
    expect(theirs.cancellation).toEqual({ reasons: [], saves: [], winBack: { sent: 0, conversions: 0 } });
  });

  it('applies the cheaper-plan save as a downgrade at the period end, made at the processor by the sweep (runs last: it moves the clock)', async () => {
    const reader = await system.reader();
    const { subscriptionId, processorId, currentPeriodEnd } = await system.subscribe(reader, digital.id);
    const accepted = await accept(reader, subscriptionId, 'missing_features');
    expect(accepted).toMatchObject({ status: 200, body: { kind: 'plan_change', subscription: { priceId: digital.id, scheduledChange: { priceId: lite.id, effectiveAt: currentPeriodEnd } } } });

    clock.advance(new Date(currentPeriodEnd).getTime() - clock.now().getTime());
    await system.billing.app.get(ScheduledPlanChanges).sweep();
    expect((await system.fake.object('subscription', processorId))['items'].data[0].price.id).toBe(await system.processorPriceId(lite.id));
    expect((await system.subscriptionsOf(reader.id))[0]).toMatchObject({ priceId: lite.id, scheduledChange: null, cancelAtPeriodEnd: false });
    const stats = await system.request(BillingRequests.GetStats, { publicationId: system.publicationId, from: since, to: new Date(Date.now() + 40 * DAY_MS).toISOString(), interval: 'day' });
    expect(stats.cancellation.saves).toContainEqual({ kind: 'plan_change', offered: 1, accepted: 1 });
  });
});
