import type { AccessCheckResult, PaywallView, PurchaseView, Stats } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import { SteerableClock } from './support/billing';
import { SITE, WholeSystem, type Reader } from './support/system-all';

const HOUR_MS = 3_600_000;

/**
 * Passes and single articles (issue #25 item 4): one-time prices bought through the processor's
 * checkout in payment mode (the fake processor), recorded by billing with their end, granted by
 * the access decision through the gateway (`pass` until the end, `single_article` on its page
 * only), offered by a paywall beside the subscription plans, announced and counted, and of one
 * publication only.
 */
describe('passes and single articles', () => {
  /** The time access and billing read: the real time, moved on when a test says so. */
  const clock = new SteerableClock();
  let system: WholeSystem;
  let premium: PaywallView;
  let sport: PaywallView;
  let dayPass: { id: string };
  let premiumWeekPass: { id: string };
  let article: { id: string };
  let monthly: { id: string };

  beforeAll(async () => {
    system = await WholeSystem.start({ clock });
    await system.readOutboundEvents();
    [premium, sport] = await Promise.all([
      system.paywall({ name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } }),
      system.paywall({ name: 'Sport', type: 'hard', match: { include: ['/sport/**'] } }),
    ]);
    const [all, premiumOnly] = await Promise.all([system.product({ name: 'Everything' }), system.product({ name: 'Premium only', entitlements: [premium.id] })]);
    [dayPass, premiumWeekPass, article, monthly] = await Promise.all([
      system.price(all.id, { currency: 'eur', unitAmount: 200, interval: 'pass', passHours: 24 }),
      system.price(premiumOnly.id, { currency: 'eur', unitAmount: 500, interval: 'pass', passHours: 168 }),
      system.price(all.id, { currency: 'eur', unitAmount: 99, interval: 'single_article' }),
      system.price(all.id, { currency: 'eur', unitAmount: 900, interval: 'month' }),
    ]);
  }, 120_000);

  afterAll(() => system?.close());

  const blockedBy = (paywall: PaywallView, reader: Reader): AccessCheckResult =>
    ({ granted: false, reason: 'blocked', paywallRule: expect.objectContaining({ paywallId: paywall.id }), customerId: reader.id }) as AccessCheckResult;

  /** The reader pays the checkout at the processor and comes back: the page's SDK confirms it, as it does on return. */
  const buy = async (reader: Reader, priceId: string, extra: Record<string, unknown> = {}) => {
    const started = await system.checkout(reader, priceId, extra);
    expect(started.status).toBe(201);
    const paid = await system.fake.completeCheckout(started.body.sessionId);
    const confirmed = await system.api('/subscriptions/checkout/confirm', { key: system.publishableKey, token: reader.accessToken, body: { sessionId: started.body.sessionId } });
    expect(confirmed.status).toBe(200);
    return { sessionId: started.body.sessionId as string, paid, confirmation: confirmed.body, purchase: confirmed.body.purchase as PurchaseView };
  };

  /** Runs `body` with the clock moved on by what `moveOn` adds, and puts it back. */
  const travelling = async (body: (moveOn: (ms: number) => void) => Promise<void>) => {
    let moved = 0;
    try {
      await body((ms) => {
        clock.advance(ms);
        moved += ms;
      });
    } finally {
      clock.advance(-moved);
    }
  };

  it('checks out a pass in payment mode at the processor, with a PaymentIntent, and records it for exactly its hours', async () => {
    const reader = await system.reader();
    const { sessionId, paid, confirmation, purchase } = await buy(reader, dayPass.id);
    expect(paid.session).toMatchObject({ mode: 'payment', payment_status: 'paid', subscription: null, payment_intent: paid.paymentIntent!['id'] });
    expect(paid.paymentIntent).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount: 200, currency: 'eur', metadata: { customerId: reader.id, priceId: dayPass.id } });
    expect(paid.events.map((event) => event.type)).toEqual(['payment_intent.succeeded', 'checkout.session.completed']);
    expect(confirmation).toEqual({ sessionId, status: 'complete', subscription: null, purchase: expect.objectContaining({ kind: 'pass', customerId: reader.id, priceId: dayPass.id, url: null }) });
    expect(Date.parse(purchase.endsAt!) - Date.parse(purchase.startsAt)).toBe(24 * HOUR_MS);
    // A pass is no subscription: the reader's purchases list it.
    expect(await system.subscriptionsOf(reader.id)).toEqual([]);
    const listed = await system.api('/subscriptions/purchases', { key: system.publishableKey, token: reader.accessToken });
    const withProduct = { ...purchase, productName: 'Everything' };
    expect(listed).toMatchObject({ status: 200, body: { purchases: [withProduct] } });
    expect((await system.api(`/subscriptions/purchases?customerId=${reader.id}`, { key: system.secretKey })).body).toEqual({ purchases: [withProduct] });
    // Staff see it on the customer's page, with their session.
    expect(await system.admin(`/admin/customers/${reader.id}/purchases`)).toMatchObject({ status: 200, body: { purchases: [withProduct] } });

    // The processor's webhook, after the return, finds it recorded: one event, one purchase.
    for (const event of paid.events) await system.deliverOk(event);
    const completed = paid.events.find((event) => event.type === 'checkout.session.completed')!;
    await eventually(async () => {
      const [row] = await system.querySchema<{ processed_at: Date | null }>('billing', 'SELECT processed_at FROM processor_events WHERE event_id = $1', [completed.id]);
      return row?.processed_at ? true : undefined;
    });
    await eventually(async () => (system.outboundFor('pass.purchased', (data) => data.customerId === reader.id).length > 0 ? true : undefined));
    const [{ n }] = await system.querySchema<{ n: number }>('billing', 'SELECT count(*)::int AS n FROM purchases WHERE customer_id = $1', [reader.id]);
    expect(n).toBe(1);
    expect(system.outboundFor('pass.purchased', (data) => data.customerId === reader.id).map((event) => event.data)).toEqual([purchase]);
  });

  it('grants a pass holder (reason pass) on the next check, until the end of the pass and not after', async () => {
    const reader = await system.reader();
    expect(await system.decisionFor(reader, '/premium/story')).toEqual(blockedBy(premium, reader));
    const { purchase } = await buy(reader, dayPass.id);
    const granted = { granted: true, reason: 'pass', customerId: reader.id };
    expect(await system.decisionFor(reader, '/premium/story')).toEqual(granted);
    expect(await system.decisionFor(reader, '/sport/match')).toEqual(granted);

    await travelling(async (moveOn) => {
      moveOn(Date.parse(purchase.endsAt!) - clock.now().getTime() - 2_000);
      expect(await system.decisionFor(reader, '/premium/story')).toEqual(granted);
      moveOn(3_000);
      expect(await system.decisionFor(reader, '/premium/story')).toEqual(blockedBy(premium, reader));
      expect(await system.decisionFor(reader, '/sport/match')).toEqual(blockedBy(sport, reader));
    });
  });

  it("grants a pass only on the paywalls its product unlocks, as a subscription's", async () => {
    const reader = await system.reader();
    const { purchase } = await buy(reader, premiumWeekPass.id);
    expect(Date.parse(purchase.endsAt!) - Date.parse(purchase.startsAt)).toBe(168 * HOUR_MS);
    expect(await system.decisionFor(reader, '/premium/story')).toEqual({ granted: true, reason: 'pass', customerId: reader.id });
    expect(await system.decisionFor(reader, '/sport/match')).toEqual(blockedBy(sport, reader));
  });

  it('keeps a single article unlocked for good, on its page only', async () => {
    const reader = await system.reader();
    const { purchase } = await buy(reader, article.id, { articleUrl: `${SITE}/premium/long-read?utm_source=x` });
    expect(purchase).toMatchObject({ kind: 'single_article', url: `${SITE}/premium/long-read?utm_source=x`, endsAt: null });
    const granted = { granted: true, reason: 'single_article', customerId: reader.id };
    expect(await system.decisionFor(reader, '/premium/long-read')).toEqual(granted);
    // The same page however the URL writes it; never another.
    expect(await system.decisionFor(reader, '/Premium//long-read/?page=2')).toEqual(granted);
    expect(await system.decisionFor(reader, '/premium/other-read')).toEqual(blockedBy(premium, reader));
    expect(await system.decisionFor(reader, '/sport/long-read')).toEqual(blockedBy(sport, reader));
    await eventually(async () => (system.outboundFor('article.purchased', (data) => data.customerId === reader.id).length === 1 ? true : undefined));

    await travelling(async (moveOn) => {
      moveOn(400 * 24 * HOUR_MS);
      expect(await system.decisionFor(reader, '/premium/long-read')).toEqual(granted);
      expect(await system.decisionFor(reader, '/premium/other-read')).toEqual(blockedBy(premium, reader));
    });
  });

  it('refuses what makes no sense, changing nothing', async () => {
    const reader = await system.reader();
    const product = await system.product({ name: 'Odd' });
    const price = (body: object) => system.admin(`/admin/products/${product.id}/prices`, { body: { currency: 'eur', unitAmount: 100, ...body } });
    expect((await price({ interval: 'pass' })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'passHours' }] });
    expect((await price({ interval: 'month', passHours: 24 })).body).toMatchObject({ status: 400, errors: [{ field: 'passHours' }] });
    expect((await price({ interval: 'pass', passHours: 0 })).body).toMatchObject({ status: 400, errors: [{ field: 'passHours' }] });
    expect((await price({ interval: 'pass', passHours: 8761 })).body).toMatchObject({ status: 400, errors: [{ field: 'passHours' }] });
    expect((await system.admin(`/admin/products/${product.id}/prices`)).body.items).toEqual([]);

    expect((await system.checkout(reader, article.id)).body).toMatchObject({ status: 400, errors: [{ field: 'articleUrl' }] });
    expect((await system.checkout(reader, dayPass.id, { articleUrl: `${SITE}/premium/x` })).body).toMatchObject({ status: 400, errors: [{ field: 'articleUrl' }] });
    expect((await system.checkout(reader, monthly.id, { articleUrl: `${SITE}/premium/x` })).body).toMatchObject({ status: 400, errors: [{ field: 'articleUrl' }] });
    expect((await system.checkout(reader, article.id, { articleUrl: 'https://elsewhere.example/premium/x' })).body).toMatchObject({ status: 403, code: 'url_not_in_publication' });
    expect((await system.checkout(reader, article.id, { articleUrl: `${SITE}/${'a'.repeat(500)}` })).body).toMatchObject({ status: 400, errors: [{ field: 'articleUrl' }] });
    // Bought, not granted by hand.
    expect((await system.admin('/admin/subscriptions', { body: { customerId: reader.id, priceId: dayPass.id } })).body).toMatchObject({ status: 400, errors: [{ field: 'priceId' }] });
    const [{ n }] = await system.querySchema<{ n: number }>('billing', 'SELECT count(*)::int AS n FROM checkout_sessions WHERE customer_id = $1', [reader.id]);
    expect(n).toBe(0);
  });

  it("offers a paywall's passes and single article in its rule; only such prices of the publication", async () => {
    const updated = await system.admin(`/admin/paywalls/${premium.id}`, { method: 'PATCH', body: { oneTimePriceIds: [dayPass.id, article.id] } });
    expect(updated).toMatchObject({ status: 200, body: { oneTimePriceIds: [dayPass.id, article.id] } });
    const reader = await system.reader();
    expect(await system.decisionFor(reader, '/premium/story')).toMatchObject({ granted: false, paywallRule: { paywallId: premium.id, oneTimePriceIds: [dayPass.id, article.id] } });
    const prices = (await system.api('/prices', { key: system.publishableKey })).body.prices;
    expect(prices).toEqual(expect.arrayContaining([expect.objectContaining({ id: dayPass.id, interval: 'pass', passHours: 24 }), expect.objectContaining({ id: article.id, interval: 'single_article', passHours: null })]));

    const refused = await system.admin(`/admin/paywalls/${premium.id}`, { method: 'PATCH', body: { oneTimePriceIds: [monthly.id, '00000000-0000-4000-8000-000000000000'] } });
    expect(refused.body).toMatchObject({
      status: 400,
      errors: [
        { field: 'oneTimePriceIds[0]', message: 'is not a pass or single-article price' },
        { field: 'oneTimePriceIds[1]', message: 'is not a price of this publication' },
      ],
    });
    expect((await system.admin(`/admin/paywalls/${premium.id}`)).body.oneTimePriceIds).toEqual([dayPass.id, article.id]);
  });

  it('keeps passes and articles within their publication', async () => {
    const { session } = await system.otherPublicationSession();
    const other = (await system.api('/admin/api-keys', { session, body: { name: 'other-site' } })).body;
    const otherReader = (await system.api('/auth/customers/register', { key: other.publishableKey, body: { email: `other-${Date.now()}@example.com`, password: 'reader-password', name: 'Other' } })).body;
    // Another publication can neither sell nor offer the first one's prices: to it they do not exist.
    const otherSite = `https://${(await system.api('/admin/session', { session })).body.publication.domains[0]}`;
    const otherCheckout = await system.api('/subscriptions/checkout', {
      key: other.secretKey,
      body: { priceId: dayPass.id, customerId: otherReader.customer.id, successUrl: `${otherSite}/ok`, cancelUrl: `${otherSite}/no` },
    });
    expect(otherCheckout.body).toMatchObject({ status: 404, code: 'not_found' });
    const otherPaywall = await system.api('/admin/paywalls', { session, body: { name: 'Theirs', type: 'hard', match: { include: ['/x/**'] }, oneTimePriceIds: [dayPass.id] } });
    expect(otherPaywall.body).toMatchObject({ status: 400, errors: [{ field: 'oneTimePriceIds[0]', message: 'is not a price of this publication' }] });

    // Nor confirm, or see, a purchase of the first.
    const reader = await system.reader();
    const { sessionId } = await buy(reader, dayPass.id);
    const confirmed = await system.api('/subscriptions/checkout/confirm', { key: other.secretKey, body: { sessionId, customerId: reader.id } });
    expect(confirmed.body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.api(`/subscriptions/purchases?customerId=${reader.id}`, { key: other.secretKey })).body).toMatchObject({ status: 404, code: 'not_found' });
    // Its staff cannot see them either: to them the customer does not exist.
    const staffOfOther = await system.api(`/admin/customers/${reader.id}/purchases`, { session });
    expect(staffOfOther.status).toBe(404);
    expect(staffOfOther.headers.get('content-type')).toContain('application/problem+json');
    expect(staffOfOther.body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.admin(`/admin/customers/${reader.id}/purchases`)).body.purchases).toHaveLength(1);
    expect((await system.admin('/admin/customers/not-an-id/purchases')).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.api(`/admin/customers/${reader.id}/purchases`, { key: system.secretKey })).status).toBe(401);
    const day = { from: new Date(clock.now().getTime() - HOUR_MS).toISOString(), to: new Date(clock.now().getTime() + HOUR_MS).toISOString(), interval: 'hour' };
    const statsOf = async (cookie: string): Promise<Stats> => (await system.api(`/admin/stats?${new URLSearchParams(day)}`, { session: cookie })).body;
    expect((await statsOf(session)).purchases).toEqual({ passes: 0, singleArticles: 0 });
    const mine = (await statsOf(system.session)).purchases;
    expect(mine.passes).toBeGreaterThanOrEqual(1);
    expect(mine.singleArticles).toBeGreaterThanOrEqual(1);
  });
});
