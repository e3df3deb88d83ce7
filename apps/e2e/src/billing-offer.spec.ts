import type { OfferView } from '@gatehouse/contracts';
import { SteerableClock } from './support/billing';
import { EventReader } from './support/events';
import { SITE, WholeSystem } from './support/system-all';

/** `GET /api/v1/prices`: what a publisher's paywalls offer, for either key, one publication only. */
describe('the prices on sale and the offers on them', () => {
  let system: WholeSystem;
  let events: EventReader;
  const clock = new SteerableClock();

  beforeAll(async () => {
    system = await WholeSystem.start({ clock });
    events = await EventReader.start(system.namespace, ['subscription.created']);
  }, 120_000);

  afterAll(async () => {
    await events?.close();
    await system?.close();
  }, 60_000);

  async function offer(body: Record<string, unknown>): Promise<OfferView> {
    const created = await system.admin('/admin/offers', { body: { name: 'An offer', ...body } });
    expect(created.status).toBe(201);
    return created.body;
  }

  it('lists the active prices of active products, cheapest first, to either key of the publication and no other', async () => {
    const digital = await system.product({ name: 'Digital' });
    const print = await system.product({ name: 'Print' });
    const retired = await system.product({ name: 'Retired' });
    const yearly = await system.price(digital.id, { currency: 'usd', unitAmount: 5000, interval: 'year' });
    const monthly = await system.price(digital.id, { currency: 'usd', unitAmount: 500, interval: 'month', trialDays: 7 });
    const old = await system.price(digital.id, { currency: 'usd', unitAmount: 400, interval: 'month' });
    const weekend = await system.price(print.id, { currency: 'eur', unitAmount: 900, interval: 'month' });
    await system.price(retired.id, { currency: 'usd', unitAmount: 100, interval: 'month' });
    expect((await system.admin(`/admin/prices/${old.id}`, { method: 'PATCH', body: { active: false } })).status).toBe(200);
    expect((await system.admin(`/admin/products/${retired.id}`, { method: 'PATCH', body: { active: false } })).status).toBe(200);

    const expected = [
      { id: monthly.id, productId: digital.id, productName: 'Digital', currency: 'usd', unitAmount: 500, interval: 'month', trialDays: 7, passHours: null },
      { id: weekend.id, productId: print.id, productName: 'Print', currency: 'eur', unitAmount: 900, interval: 'month', trialDays: 0, passHours: null },
      { id: yearly.id, productId: digital.id, productName: 'Digital', currency: 'usd', unitAmount: 5000, interval: 'year', trialDays: 0, passHours: null },
    ];
    for (const key of [system.publishableKey, system.secretKey]) {
      const answer = await system.api('/prices', { key });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ prices: expected });
    }

    const other = await system.otherPublicationSession();
    const keys = await system.api('/admin/api-keys', { session: other.session, body: { name: 'other-site' } });
    expect(keys.status).toBe(201);
    await expect(system.api('/prices', { key: keys.body.publishableKey })).resolves.toMatchObject({ status: 200, body: { prices: [] } });
    await expect(system.api('/prices')).resolves.toMatchObject({ status: 401, body: { code: 'api_key_missing' } });
  }, 60_000);

  it("redeems an offer's code at checkout: the processor applies its promotion code, the subscription and its event carry the offer, and stats count it", async () => {
    const digital = await system.product({ name: 'Offer digital' });
    const monthly = await system.price(digital.id, { currency: 'eur', unitAmount: 600, interval: 'month' });
    const spring = await offer({ code: 'spring3', name: 'Spring', kind: 'amount', amountOff: 300, currency: 'EUR', duration: 'repeating', durationInMonths: 3, priceIds: [monthly.id] });
    expect(spring).toMatchObject({ code: 'SPRING3', kind: 'amount', amountOff: 300, currency: 'eur', duration: 'repeating', durationInMonths: 3, redemptions: 0, active: true });

    const terms = await system.api('/offers?code=Spring3', { key: system.publishableKey });
    expect(terms.status).toBe(200);
    expect(terms.body).toEqual({
      code: 'SPRING3',
      name: 'Spring',
      kind: 'amount',
      percentOff: null,
      amountOff: 300,
      currency: 'eur',
      duration: 'repeating',
      durationInMonths: 3,
      trialDays: null,
      priceIds: [monthly.id],
      newCustomersOnly: false,
      endsAt: null,
    });

    const reader = await system.reader();
    const subscribed = await system.subscribe(reader, monthly.id, { offerCode: 'spring3' });
    expect(subscribed).toMatchObject({ status: 'active', offer: { offerId: spring.id, code: 'SPRING3' } });

    const atProcessor = await system.fake.object('subscription', subscribed.processorId);
    const discount = await system.fake.object('discount', atProcessor['discounts'][0]);
    const promotionCode = await system.fake.object('promotion_code', discount['promotion_code']);
    expect(promotionCode).toMatchObject({ code: 'SPRING3', times_redeemed: 1 });
    await expect(system.fake.object('coupon', discount['source'].coupon)).resolves.toMatchObject({ amount_off: 300, currency: 'eur', duration: 'repeating', duration_in_months: 3 });
    const invoice = (await system.fake.events()).find((e) => e.type === 'invoice.payment_succeeded' && e.data.object['parent'].subscription_details.subscription === subscribed.processorId);
    expect(invoice?.data.object['amount_paid']).toBe(300);

    const created = await events.waitFor<any>('subscription.created', (data) => data.subscriptionId === subscribed.subscriptionId);
    expect(created.data.offer).toEqual({ offerId: spring.id, code: 'SPRING3' });
    await expect(system.admin(`/admin/offers/${spring.id}`)).resolves.toMatchObject({ status: 200, body: { redemptions: 1 } });
    const day = new Date(clock.now().toISOString().slice(0, 10));
    const stats = await system.admin(`/admin/stats?from=${day.toISOString()}&to=${new Date(day.getTime() + 86_400_000).toISOString()}&interval=day`);
    expect(stats.body.offers).toEqual([{ offerId: spring.id, code: 'SPRING3', redemptions: 1 }]);
  }, 60_000);

  it('refuses a used-up, an ended and a not-applicable offer with a clear problem, and starts no checkout at the processor', async () => {
    const product = await system.product({ name: 'Offer limits' });
    const monthly = await system.price(product.id, { currency: 'eur', unitAmount: 800, interval: 'month' });
    const yearly = await system.price(product.id, { currency: 'eur', unitAmount: 8000, interval: 'year' });
    await offer({ code: 'ONCE-ONLY', kind: 'percent', percentOff: 50, duration: 'once', maxRedemptions: 1 });
    await offer({ code: 'WEEKEND', kind: 'percent', percentOff: 20, duration: 'forever', endsAt: new Date(clock.now().getTime() + 3_600_000).toISOString() });
    await offer({ code: 'MONTHLY-ONLY', kind: 'trial', trialDays: 30, priceIds: [monthly.id] });
    await offer({ code: 'WELCOME', kind: 'percent', percentOff: 10, duration: 'once', newCustomersOnly: true });

    await system.subscribe(await system.reader(), monthly.id, { offerCode: 'once-only' });
    const returning = await system.reader();
    await system.grant(returning, yearly.id);
    const sessionsBefore = (await system.fake.requestsTo('POST', '/v1/checkout/sessions')).length;
    const checkout = (offerCode: string, priceId = monthly.id) =>
      system.api('/subscriptions/checkout', {
        key: system.secretKey,
        body: { priceId, customerId: returning.id, successUrl: 'https://all.example/ok', cancelUrl: 'https://all.example/no', offerCode },
      });

    await expect(checkout('ONCE-ONLY')).resolves.toMatchObject({ status: 410, body: { code: 'offer_exhausted' } });
    await expect(system.api('/offers?code=ONCE-ONLY', { key: system.publishableKey })).resolves.toMatchObject({ status: 410, body: { code: 'offer_exhausted' } });
    await expect(checkout('MONTHLY-ONLY', yearly.id)).resolves.toMatchObject({ status: 409, body: { code: 'offer_not_applicable', detail: 'This offer is not for this price.' } });
    await expect(checkout('WELCOME')).resolves.toMatchObject({ status: 409, body: { code: 'offer_not_applicable', detail: 'This offer is for new subscribers only.' } });
    await expect(checkout('NO-SUCH-CODE')).resolves.toMatchObject({ status: 404, body: { code: 'not_found' } });
    clock.advance(2 * 3_600_000);
    await expect(checkout('WEEKEND')).resolves.toMatchObject({ status: 410, body: { code: 'offer_expired' } });
    await expect(system.api('/offers?code=weekend', { key: system.publishableKey })).resolves.toMatchObject({ status: 410, body: { code: 'offer_expired' } });
    expect(await system.fake.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(sessionsBefore);

    // A trial offer gives its days instead of the price's.
    const trial = await checkout('MONTHLY-ONLY');
    expect(trial.status).toBe(201);
    expect((await system.fake.requestsTo('POST', '/v1/checkout/sessions')).at(-1)!.body['subscription_data']).toMatchObject({ trial_period_days: '30', metadata: { offerCode: 'MONTHLY-ONLY' } });
  }, 60_000);

  it("limits an offer to a segment, decided on the reader's facts as an access check decides them: refused outside it at the look-up and at checkout, discounted inside it", async () => {
    const product = await system.product({ name: 'Segment offers' });
    const monthly = await system.price(product.id, { currency: 'eur', unitAmount: 700, interval: 'month' });
    const segment = async (body: Record<string, unknown>) => (await system.admin('/admin/segments', { body: { match: 'all', ...body } })).body;
    const regularReaders = await segment({ name: 'Regulars', conditions: [{ attribute: 'visit_count', operator: 'gt', value: 2 }] });
    const germany = await segment({ name: 'Germany', conditions: [{ attribute: 'country', operator: 'eq', value: 'DE' }] });
    const regulars = await offer({ code: 'REGULARS', kind: 'percent', percentOff: 40, duration: 'once', priceIds: [monthly.id], segmentId: regularReaders.id });
    await offer({ code: 'DE-ONLY', kind: 'trial', trialDays: 60, segmentId: germany.id });
    expect(regulars.segmentId).toBe(regularReaders.id);
    await expect(system.admin(`/admin/offers/${regulars.id}`)).resolves.toMatchObject({ status: 200, body: { segmentId: regularReaders.id } });
    await expect(system.admin(`/admin/offers/${regulars.id}`, { method: 'PATCH', body: { segmentId: null } })).resolves.toMatchObject({ status: 400, body: { errors: [{ field: 'segmentId' }] } });

    // Checks of pages no paywall covers (the gateway answers them): each is a visit all the same.
    const newcomer = await system.reader();
    const regular = await system.reader();
    await system.decisionFor(newcomer, '/regulars/first');
    for (const story of ['one', 'two', 'three']) await system.decisionFor(regular, `/regulars/${story}`);
    for (const story of ['one', 'two', 'three']) await system.decision({ url: `/regulars/${story}`, userId: 'segment-regular-visitor' });

    const lookUp = (query: string, token?: string) => system.api(`/offers?${query}`, { key: system.publishableKey, token });
    const refused = { status: 409, body: { code: 'offer_not_applicable', detail: 'This offer is not available to you.' } };
    await expect(lookUp('code=regulars', newcomer.accessToken)).resolves.toMatchObject(refused);
    // Anonymous: nothing stored is known, so no visit count to be over 2.
    await expect(lookUp('code=regulars')).resolves.toMatchObject(refused);
    await expect(lookUp('code=regulars', regular.accessToken)).resolves.toMatchObject({ status: 200, body: { code: 'REGULARS', percentOff: 40 } });
    await expect(lookUp('code=regulars&userId=segment-regular-visitor')).resolves.toMatchObject({ status: 200, body: { code: 'REGULARS' } });
    await expect(lookUp('code=de-only&country=FR')).resolves.toMatchObject(refused);
    await expect(lookUp('code=de-only&country=de')).resolves.toMatchObject({ status: 200, body: { code: 'DE-ONLY', trialDays: 60 } });
    await expect(lookUp('code=de-only&country=DE&url=https://elsewhere.example/page')).resolves.toMatchObject({ status: 403, body: { code: 'url_not_in_publication' } });

    const sessionsBefore = (await system.fake.requestsTo('POST', '/v1/checkout/sessions')).length;
    await expect(system.checkout(newcomer, monthly.id, { offerCode: 'REGULARS' })).resolves.toMatchObject(refused);
    await expect(system.checkout(regular, monthly.id, { offerCode: 'DE-ONLY', reader: { country: 'FR' } })).resolves.toMatchObject(refused);
    await expect(system.checkout(regular, monthly.id, { offerCode: 'DE-ONLY', reader: { country: 'XYZ' } })).resolves.toMatchObject({ status: 400, body: { errors: [{ field: 'reader.country' }] } });
    expect(await system.fake.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(sessionsBefore);
    const german = await system.checkout(newcomer, monthly.id, { offerCode: 'DE-ONLY', reader: { country: 'DE', url: `${SITE}/regulars/first` } });
    expect(german.status).toBe(201);
    expect((await system.fake.requestsTo('POST', '/v1/checkout/sessions')).at(-1)!.body['subscription_data']).toMatchObject({ trial_period_days: '60' });

    const subscribed = await system.subscribe(regular, monthly.id, { offerCode: 'regulars' });
    expect(subscribed).toMatchObject({ status: 'active', offer: { offerId: regulars.id, code: 'REGULARS' } });
    const atProcessor = await system.fake.object('subscription', subscribed.processorId);
    const discount = await system.fake.object('discount', atProcessor['discounts'][0]);
    await expect(system.fake.object('coupon', discount['source'].coupon)).resolves.toMatchObject({ percent_off: 40, duration: 'once' });
    const invoice = (await system.fake.events()).find((e) => e.type === 'invoice.payment_succeeded' && e.data.object['parent'].subscription_details.subscription === subscribed.processorId);
    expect(invoice?.data.object['amount_paid']).toBe(420);

    // Another publication's segment does not exist here; a malformed id is refused; nothing is stored.
    const other = await system.otherPublicationSession();
    const theirs = await system.api('/admin/segments', { session: other.session, body: { name: 'Theirs', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] } });
    expect(theirs.status).toBe(201);
    await expect(system.admin('/admin/offers', { body: { name: 'Theirs', code: 'THEIR-SEGMENT', kind: 'trial', trialDays: 7, segmentId: theirs.body.id } })).resolves.toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    await expect(system.admin('/admin/offers', { body: { name: 'Bad', code: 'BAD-SEGMENT', kind: 'trial', trialDays: 7, segmentId: 'not-a-segment' } })).resolves.toMatchObject({
      status: 400,
      body: { code: 'validation_failed', errors: [{ field: 'segmentId' }] },
    });
    const listed = await system.admin('/admin/offers?limit=100');
    expect(listed.body.items.filter((o: OfferView) => ['THEIR-SEGMENT', 'BAD-SEGMENT'].includes(o.code))).toEqual([]);
    // Another publication's key: a code limited to a segment is as unknown as any other code.
    const keys = await system.api('/admin/api-keys', { session: other.session, body: { name: 'segment-offers-other' } });
    const unknown = await system.api('/offers?code=NOPE-NOPE', { key: keys.body.publishableKey });
    const foreign = await system.api('/offers?code=REGULARS', { key: keys.body.publishableKey });
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body, instance: undefined }).toEqual({ ...unknown.body, instance: undefined });
  }, 60_000);

  it('keeps offers to their publication and refuses bad input without storing anything', async () => {
    const mine = await offer({ code: 'MINE', kind: 'percent', percentOff: 15, duration: 'forever' });
    const other = await system.otherPublicationSession();
    const keys = await system.api('/admin/api-keys', { session: other.session, body: { name: 'offers-other' } });
    const unknown = await system.api('/offers?code=NOPE-NOPE', { key: keys.body.publishableKey });
    const foreign = await system.api('/offers?code=MINE', { key: keys.body.publishableKey });
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body, instance: undefined }).toEqual({ ...unknown.body, instance: undefined });
    await expect(system.api(`/admin/offers/${mine.id}`, { session: other.session })).resolves.toMatchObject({ status: 404 });
    await expect(system.api('/admin/offers', { session: other.session })).resolves.toMatchObject({ status: 200, body: { items: [] } });
    await expect(system.api('/offers?code=MINE', { key: system.secretKey })).resolves.toMatchObject({ status: 403, body: { code: 'api_key_wrong_kind' } });
    // Codes cannot be found by trying: 30 look-ups a minute per key and address (two are spent above).
    const lookups = await Promise.all(Array.from({ length: 29 }, (_, i) => system.api(`/offers?code=GUESS-${i}`, { key: keys.body.publishableKey })));
    expect(lookups.map((answer) => answer.status).sort()).toEqual([...Array(28).fill(404), 429]);

    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ code: 'PCT', kind: 'percent', duration: 'once' }, 'percentOff'],
      [{ code: 'PCT', kind: 'percent', percentOff: 101, duration: 'once' }, 'percentOff'],
      [{ code: 'AMT', kind: 'amount', amountOff: 100, duration: 'once' }, 'currency'],
      [{ code: 'REP', kind: 'percent', percentOff: 10, duration: 'repeating' }, 'durationInMonths'],
      [{ code: 'TRI', kind: 'trial', trialDays: 14, percentOff: 10 }, 'percentOff'],
      [{ code: 'no spaces', kind: 'trial', trialDays: 14 }, 'code'],
      [{ code: 'PAST', kind: 'trial', trialDays: 14, endsAt: '2020-01-01T00:00:00Z' }, 'endsAt'],
      [{ code: 'PRICE', kind: 'trial', trialDays: 14, priceIds: [mine.id] }, 'priceIds'],
      [{ code: 'EXTRA', kind: 'trial', trialDays: 14, unknown: true }, 'unknown'],
    ];
    for (const [body, field] of refusals) {
      const answer = await system.admin('/admin/offers', { body: { name: 'Bad', ...body } });
      expect([answer.status, answer.body.code, answer.body.errors?.[0]?.field]).toEqual([400, 'validation_failed', field]);
    }
    await expect(system.admin('/admin/offers', { body: { name: 'Again', code: 'mine', kind: 'trial', trialDays: 7 } })).resolves.toMatchObject({ status: 409, body: { code: 'conflict' } });
    await expect(system.api('/offers?code=a', { key: system.publishableKey })).resolves.toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    const listed = await system.admin('/admin/offers?limit=100');
    expect(listed.body.items.filter((o: OfferView) => ['PCT', 'AMT', 'REP', 'TRI', 'PAST', 'PRICE', 'EXTRA'].includes(o.code))).toEqual([]);

    const ended = await system.admin(`/admin/offers/${mine.id}`, { method: 'PATCH', body: { active: false } });
    expect(ended.body).toMatchObject({ active: false, code: 'MINE', percentOff: 15 });
    await expect(system.api('/offers?code=mine', { key: system.publishableKey })).resolves.toMatchObject({ status: 410, body: { code: 'offer_expired' } });
  }, 60_000);

  it('lets an experiment variant carry an offer: the visitors it is assigned to get the code with the paywall, and a code that cannot be redeemed is refused', async () => {
    await offer({ code: 'TRY-PRICE', kind: 'percent', percentOff: 30, duration: 'once' });
    const paywall = await system.paywall({ name: 'Offer experiment', type: 'hard', match: { include: ['/offer-test/**'] } });
    const experiment = (variants: unknown[]) => system.admin('/admin/experiments', { body: { name: 'Price test', paywallId: paywall.id, variants } });

    const refused = await experiment([{ name: 'A', weight: 50 }, { name: 'B', weight: 50, overrides: { offerCode: 'NO-SUCH' } }]);
    expect([refused.status, refused.body.errors]).toEqual([400, [{ field: 'variants[1].overrides.offerCode', message: 'is not an offer of this publication that can be redeemed now' }]]);

    const created = await experiment([{ name: 'Full price', weight: 0 }, { name: 'Discount', weight: 100, overrides: { offerCode: 'try-price' } }]);
    expect(created.status).toBe(201);
    expect((await system.admin(`/admin/experiments/${created.body.id}/start`, { method: 'POST' })).status).toBe(200);
    const decision = await system.decision({ url: '/offer-test/story', userId: 'offer-visitor' });
    expect(decision).toMatchObject({ granted: false, paywallRule: { paywallId: paywall.id, offerCode: 'TRY-PRICE' }, experiment: { experimentId: created.body.id, variantId: created.body.variants[1].id } });
  }, 60_000);
});
