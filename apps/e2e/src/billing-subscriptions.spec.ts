import { ManualGrantExpiry, ScheduledPlanChanges } from '@gatehouse/billing';
import { BillingRequests } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { BillingSystem, SECRET_KEY, SteerableClock, unixNow, type Customer } from './support/billing';

const PAYWALL = '3f9d2c1b-7a6e-4d5c-8b4a-0e1f2a3b4c5d';

/** Checkout, portal, cancel and subscriptions/me (spec 2.5, 4.3, 5.1; decisions F5-F9), manual grants, and what access and stats ask for. */
describe('billing: checkout, portal, cancel and subscriptions', () => {
  const clock = new SteerableClock();
  let system: BillingSystem;
  let monthly: any;
  let yearly: any;
  let statsBefore: any;
  const range = () => ({ from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 3_600_000).toISOString() });

  beforeAll(async () => {
    system = await BillingSystem.start(clock);
    await system.connectProcessor();
    const product = await system.product({ name: 'Digital', entitlements: [PAYWALL] });
    monthly = await system.price(product.id, { currency: 'eur', unitAmount: 900, interval: 'month', trialDays: 7 });
    yearly = await system.price(product.id, { currency: 'eur', unitAmount: 12000, interval: 'year' });
    statsBefore = await system.request(BillingRequests.GetStats, { publicationId: system.publicationId, ...range(), interval: 'hour' });
    await system.readOutboundEvents();
  }, 60_000);

  afterAll(() => system?.close());

  describe('checkout', () => {
    it("starts a checkout at the processor with the customer's id in its metadata, and returns the processor's address", async () => {
      const customer = await system.reader();
      const experimentId = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
      const variantId = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
      const answer = await system.checkout(customer, monthly.id, { experimentId, variantId, paywallId: PAYWALL });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({ url: `${system.fake.url}/checkout/${answer.body.sessionId}`, sessionId: expect.stringMatching(/^cs_/) });

      const [madeCustomer] = await system.fake.requestsTo('POST', '/v1/customers');
      expect(madeCustomer.body).toMatchObject({ email: customer.email, metadata: { customerId: customer.id, publicationId: system.publicationId } });
      const [session] = await system.fake.requestsTo('POST', '/v1/checkout/sessions');
      const metadata = { customerId: customer.id, publicationId: system.publicationId, priceId: monthly.id, experimentId, variantId, paywallId: PAYWALL };
      expect(session.apiKey).toBe(SECRET_KEY);
      expect(session.body).toMatchObject({
        mode: 'subscription',
        line_items: [{ price: await system.processorPriceId(monthly.id), quantity: '1' }],
        success_url: 'https://billing.example/ok',
        cancel_url: 'https://billing.example/no',
        metadata,
        subscription_data: { metadata, trial_period_days: '7' },
      });
      expect((await system.fake.object('customer', session.body.customer)).email).toBe(customer.email);

      const { events } = await system.fake.completeCheckout(answer.body.sessionId);
      for (const event of events) await system.deliverOk(event);
      await system.eventuallySubscription(customer.id, { status: 'trialing', priceId: monthly.id });
    });

    it("takes the customer from the JWT with a publishable key, and refuses another customer's id", async () => {
      const customer = await system.reader();
      const other = await system.reader();
      const body = { priceId: yearly.id, successUrl: 'https://billing.example/ok', cancelUrl: 'https://billing.example/no' };
      const own = await system.api('/subscriptions/checkout', { key: system.publishableKey, token: customer.accessToken, body });
      expect(own.status).toBe(201);
      const sessions = await system.fake.requestsTo('POST', '/v1/checkout/sessions');
      expect(sessions.at(-1)!.body.metadata.customerId).toBe(customer.id);
      expect(
        (await system.api('/subscriptions/checkout', { key: system.publishableKey, token: customer.accessToken, body: { ...body, customerId: other.id } })).body,
      ).toMatchObject({ status: 403, code: 'forbidden' });
      expect((await system.api('/subscriptions/checkout', { key: system.publishableKey, body: { ...body, customerId: customer.id } })).body).toMatchObject({
        status: 401,
        code: 'customer_token_required',
      });
      expect((await system.api('/subscriptions/checkout', { key: system.secretKey, body })).body).toMatchObject({ status: 400, code: 'validation_failed' });
    });

    it('refuses unknown prices and customers, and half an experiment', async () => {
      const customer = await system.reader();
      expect((await system.checkout(customer, '00000000-0000-4000-8000-000000000000')).body).toMatchObject({ status: 404 });
      expect((await system.checkout({ ...customer, id: '00000000-0000-4000-8000-000000000001' }, monthly.id)).body).toMatchObject({ status: 404 });
      expect((await system.checkout(customer, monthly.id, { experimentId: PAYWALL })).body).toMatchObject({ status: 400, code: 'validation_failed' });
      expect((await system.checkout(customer, monthly.id, { successUrl: 'javascript:alert(1)' })).body).toMatchObject({ status: 400 });
    });

    it("sends the reader back only to the publication's own pages, over https (plain http on loopback only)", async () => {
      const customer = await system.reader();
      const before = (await system.fake.requestsTo('POST', '/v1/checkout/sessions')).length;
      expect((await system.checkout(customer, monthly.id, { successUrl: 'https://evil.example/phish' })).body).toMatchObject({ status: 403, code: 'url_not_in_publication' });
      expect((await system.checkout(customer, monthly.id, { cancelUrl: 'https://evil.example/phish' })).body).toMatchObject({ status: 403, code: 'url_not_in_publication' });
      expect((await system.checkout(customer, monthly.id, { successUrl: 'http://billing.example/ok' })).body).toMatchObject({
        status: 400,
        code: 'validation_failed',
        errors: [{ field: 'successUrl' }],
      });
      const portal = await system.api('/subscriptions/portal', { key: system.secretKey, body: { customerId: customer.id, returnUrl: 'https://evil.example/account' } });
      expect(portal.body).toMatchObject({ status: 403, code: 'url_not_in_publication' });
      // Nothing reached the processor.
      expect(await system.fake.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(before);
    });

    it('answers 502 when the processor fails, and stores nothing', async () => {
      const customer = await system.reader();
      await system.fake.failNext({ method: 'POST', path: '/v1/checkout/sessions', status: 500 });
      expect((await system.checkout(customer, monthly.id)).body).toMatchObject({ status: 502, code: 'processor_error' });
      expect(await system.query('SELECT 1 FROM checkout_sessions WHERE customer_id = $1', [customer.id])).toEqual([]);
      expect(await system.query('SELECT 1 FROM processor_customers WHERE customer_id = $1', [customer.id])).toEqual([]);
      // Tried again, it goes through, and the customer's processor account is stored with it.
      expect((await system.checkout(customer, monthly.id)).status).toBe(201);
      expect(await system.query('SELECT 1 FROM processor_customers WHERE customer_id = $1', [customer.id])).toHaveLength(1);
    });
  });

  describe('portal', () => {
    it("opens the processor's billing portal for a customer who has checked out", async () => {
      const customer = await system.reader();
      expect((await system.api('/subscriptions/portal', { key: system.secretKey, body: { customerId: customer.id, returnUrl: 'https://billing.example/account' } })).body).toMatchObject({
        status: 404,
      });
      await system.checkout(customer, monthly.id);
      const portal = await system.api('/subscriptions/portal', { key: system.publishableKey, token: customer.accessToken, body: { returnUrl: 'https://billing.example/account' } });
      expect(portal.status).toBe(201);
      expect(portal.body.url).toMatch(new RegExp(`^${system.fake.url}/portal/bps_`));
      const [account] = await system.query('SELECT processor_customer_id FROM processor_customers WHERE customer_id = $1', [customer.id]);
      const [made] = (await system.fake.requestsTo('POST', '/v1/billing_portal/sessions')).slice(-1);
      expect(made.body).toEqual({ customer: account.processor_customer_id, return_url: 'https://billing.example/account' });
    });
  });

  describe('subscriptions/me', () => {
    it('needs a customerId with a secret key, and answers 404 for a customer of no publication of the key', async () => {
      expect((await system.api('/subscriptions/me', { key: system.secretKey })).body).toMatchObject({ status: 400, code: 'validation_failed' });
      expect((await system.api('/subscriptions/me?customerId=00000000-0000-4000-8000-000000000002', { key: system.secretKey })).body).toMatchObject({ status: 404 });
    });

    it("shows the JWT's customer their own subscriptions only", async () => {
      const customer = await system.reader();
      const other = await system.reader();
      expect((await system.api('/subscriptions/me', { key: system.publishableKey, token: customer.accessToken })).body).toEqual({ subscriptions: [] });
      expect((await system.api(`/subscriptions/me?customerId=${other.id}`, { key: system.publishableKey, token: customer.accessToken })).body).toMatchObject({
        status: 403,
        code: 'forbidden',
      });
      expect((await system.api('/subscriptions/me', { key: system.publishableKey })).body).toMatchObject({ status: 401, code: 'customer_token_required' });
    });
  });

  describe('cancel', () => {
    let customer: Customer;
    let subscriptionId: string;
    let processorId: string;

    beforeAll(async () => {
      customer = await system.reader();
      const started = await system.checkout(customer, yearly.id);
      const { events, subscription } = await system.fake.completeCheckout(started.body.sessionId);
      processorId = subscription!['id'];
      for (const event of events) await system.deliverOk(event);
      subscriptionId = (await system.eventuallySubscription(customer.id, { status: 'active' })).subscriptionId;
    });

    it("a reader may cancel only their own, only at the period end, with a reason from the list; a refusal changes nothing", async () => {
      const other = await system.reader();
      const cancel = (body: Record<string, unknown>, token?: string) => system.api('/subscriptions/cancel', { key: system.publishableKey, token, body: { subscriptionId, ...body } });
      expect((await cancel({})).body).toMatchObject({ status: 401, code: 'customer_token_required' });
      // Another reader's token: the subscription does not exist for them.
      expect((await cancel({ reason: 'unused' }, other.accessToken)).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await cancel({ reason: 'bored' }, customer.accessToken)).body).toMatchObject({
        status: 400,
        code: 'validation_failed',
        errors: [{ field: 'reason', message: expect.stringContaining('too_expensive') }],
      });
      expect((await cancel({ atPeriodEnd: false }, customer.accessToken)).body).toMatchObject({ status: 403, code: 'forbidden' });
      // Another publication: its reader, with its own key, finds no such subscription; with this publication's key their token is refused.
      const elsewhere = await system.otherPublication();
      const stranger = await system.api('/auth/customers/register', { key: elsewhere.publishableKey, body: { email: `stranger-${randomUUID()}@example.com`, password: 'reader-password', name: 'Stranger' } });
      const strangerCancel = await system.api('/subscriptions/cancel', { key: elsewhere.publishableKey, token: stranger.body.accessToken, body: { subscriptionId, reason: 'unused' } });
      expect(strangerCancel.body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await cancel({ reason: 'unused' }, stranger.body.accessToken)).body).toMatchObject({ status: 401, code: 'token_invalid' });
      expect((await system.subscriptionsOf(customer.id))[0]).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, cancellationReason: null });
      expect(await system.fake.requestsTo('POST', `/v1/subscriptions/${processorId}`)).toHaveLength(0);
    });

    it('answers 502 when the processor fails, and changes nothing', async () => {
      await system.fake.failNext({ method: 'POST', path: `/v1/subscriptions/${processorId}`, status: 500 });
      expect((await system.api('/subscriptions/cancel', { key: system.secretKey, body: { subscriptionId } })).body).toMatchObject({ status: 502, code: 'processor_error' });
      expect((await system.subscriptionsOf(customer.id))[0]).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
      expect((await system.fake.object('subscription', processorId)).cancel_at_period_end).toBe(false);
    });

    it('at the period end by default: still active, cancelAtPeriodEnd, and the processor told', async () => {
      const answer = await system.api('/subscriptions/cancel', { key: system.secretKey, body: { subscriptionId, reason: 'too_expensive' } });
      expect(answer).toMatchObject({ status: 200, body: { subscriptionId, status: 'active', cancelAtPeriodEnd: true, cancellationReason: 'too_expensive' } });
      expect((await system.fake.requestsTo('POST', `/v1/subscriptions/${processorId}`)).at(-1)!.body).toEqual({ cancel_at_period_end: 'true', cancellation_details: { feedback: 'too_expensive' } });
      expect((await system.subscriptionsOf(customer.id))[0]).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, cancellationReason: 'too_expensive' });
      const cancelled = await eventually(() => system.outboundFor('subscription.cancelled', (d) => d.subscriptionId === subscriptionId)[0]);
      expect(cancelled.data).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, cancellationReason: 'too_expensive' });
    });

    it('now, when asked', async () => {
      const answer = await system.api('/subscriptions/cancel', { key: system.secretKey, body: { subscriptionId, atPeriodEnd: false } });
      expect(answer).toMatchObject({ status: 200, body: { status: 'cancelled' } });
      expect(await system.fake.requestsTo('DELETE', `/v1/subscriptions/${processorId}`)).toHaveLength(1);
      expect((await system.subscriptionsOf(customer.id))[0].status).toBe('cancelled');
      // Cancelling a cancelled subscription changes nothing, and asks the processor nothing.
      expect((await system.api('/subscriptions/cancel', { key: system.secretKey, body: { subscriptionId, atPeriodEnd: false } })).body.status).toBe('cancelled');
      expect(await system.fake.requestsTo('DELETE', `/v1/subscriptions/${processorId}`)).toHaveLength(1);
    });
  });

  describe('manual grants and the admin list', () => {
    let customer: Customer;
    let granted: any;

    beforeAll(async () => {
      customer = await system.reader();
    });

    it('grants a subscription by hand, announced as subscription.created with source manual', async () => {
      const answer = await system.admin('/admin/subscriptions', { body: { customerId: customer.id, priceId: monthly.id } });
      expect(answer.status).toBe(201);
      granted = answer.body;
      expect(granted).toMatchObject({ customerId: customer.id, priceId: monthly.id, status: 'active', source: 'manual', currentPeriodEnd: '9999-12-31T23:59:59.999Z' });
      expect((await system.subscriptionsOf(customer.id))[0]).toEqual(granted);
      const created = await eventually(() => system.outboundFor('subscription.created', (d) => d.subscriptionId === granted.subscriptionId)[0]);
      const { createdAt: _createdAt, ...data } = granted;
      expect(created.data).toEqual(data);
    });

    it('refuses an end in the past, and unknown customers and prices', async () => {
      const past = new Date(Date.now() - 1000).toISOString();
      expect((await system.admin('/admin/subscriptions', { body: { customerId: customer.id, priceId: monthly.id, currentPeriodEnd: past } })).body).toMatchObject({
        status: 400,
      });
      expect((await system.admin('/admin/subscriptions', { body: { customerId: '00000000-0000-4000-8000-000000000003', priceId: monthly.id } })).body).toMatchObject({
        status: 404,
      });
    });

    it('lists subscriptions, by customer and by status', async () => {
      const mine = await system.admin(`/admin/subscriptions?customerId=${customer.id}`);
      expect(mine.body).toEqual({ items: [granted], nextCursor: null });
      const active = await system.admin('/admin/subscriptions?status=active&limit=100');
      expect(active.body.items.every((s: any) => s.status === 'active')).toBe(true);
      expect(active.body.items.map((s: any) => s.subscriptionId)).toContain(granted.subscriptionId);
      expect((await system.admin(`/admin/subscriptions/${granted.subscriptionId}`)).body).toEqual(granted);
    });

    it('tells access what the customer is entitled to', async () => {
      const { entitlements } = await system.request(BillingRequests.GetEntitlements, { publicationId: system.publicationId, customerId: customer.id });
      expect(entitlements).toEqual([
        { kind: 'subscription', subscriptionId: granted.subscriptionId, status: 'active', pastDueSince: null, currentPeriodEnd: '9999-12-31T23:59:59.999Z', paywallIds: [PAYWALL] },
      ]);
      expect(await system.request(BillingRequests.GetEntitlements, { publicationId: '00000000-0000-4000-8000-000000000004', customerId: customer.id })).toEqual({
        entitlements: [],
      });
    });

    it('cancels from the dashboard: a grant without an end at once', async () => {
      const answer = await system.admin(`/admin/subscriptions/${granted.subscriptionId}/cancel`, { method: 'POST' });
      expect(answer.body).toMatchObject({ status: 'cancelled', source: 'manual' });
      expect((await system.request(BillingRequests.GetEntitlements, { publicationId: system.publicationId, customerId: customer.id })).entitlements).toEqual([]);
      await eventually(() => system.outboundFor('internal.entitlements.changed', (d) => d.customerId === customer.id).length >= 2 || undefined);
    });

    it('cancels a grant with an end at that end, when asked to', async () => {
      const end = new Date(Date.now() + 30 * 86_400_000).toISOString();
      const grant = (await system.admin('/admin/subscriptions', { body: { customerId: customer.id, priceId: yearly.id, currentPeriodEnd: end } })).body;
      expect(grant.currentPeriodEnd).toBe(end);
      const answer = await system.admin(`/admin/subscriptions/${grant.subscriptionId}/cancel`, { body: { atPeriodEnd: true } });
      expect(answer.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, currentPeriodEnd: end });
    });

    it('shows past_due subscriptions to access with the time they became so', async () => {
      const owner = await system.reader();
      const { processorId } = await system.subscribe(owner, yearly.id);
      await system.deliverOk(await system.fake.invoiceEvent(processorId, 'invoice.payment_failed', { created: Math.floor(Date.now() / 1000) + 1 }));
      await system.eventuallySubscription(owner.id, { status: 'past_due' });
      const { entitlements } = await system.request(BillingRequests.GetEntitlements, { publicationId: system.publicationId, customerId: owner.id });
      expect(entitlements).toHaveLength(1);
      const [entitlement] = entitlements;
      expect(entitlement).toMatchObject({ kind: 'subscription', status: 'past_due', paywallIds: [PAYWALL] });
      expect(Date.now() - new Date(entitlement.kind === 'subscription' ? entitlement.pastDueSince! : '').getTime()).toBeLessThan(60_000);
    });
  });

  describe('stats', () => {
    it('counts new and cancelled subscriptions per bucket, subscribers, MRR and converted variants', async () => {
      const stats = await system.request(BillingRequests.GetStats, { publicationId: system.publicationId, ...range(), interval: 'hour' });
      const sum = (s: any, key: string) => s.buckets.reduce((n: number, b: any) => n + b[key], 0);
      expect(stats.buckets.length).toBeGreaterThanOrEqual(2);
      expect(stats.buckets.every((b: any) => /T\d\d:00:00\.000Z$/.test(b.start))).toBe(true);
      // This file made: the trial checkout, the cancelled yearly one, two grants (one cancelled), the past_due yearly one.
      expect(sum(stats, 'newSubscriptions') - sum(statsBefore, 'newSubscriptions')).toBe(5);
      expect(sum(stats, 'cancelledSubscriptions') - sum(statsBefore, 'cancelledSubscriptions')).toBe(2);
      expect(stats.activeSubscribers - statsBefore.activeSubscribers).toBe(3);
      // Paying processor subscriptions live now: the past_due yearly one (12000 / 12); the trial pays nothing yet.
      expect(stats.mrr).toEqual([{ currency: 'eur', amount: 1000 }]);
      expect(stats.checkoutsByVariant).toEqual([{ experimentId: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d', variantId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', checkouts: 1 }]);
      await expect(system.request(BillingRequests.GetStats, { publicationId: system.publicationId, from: 'x', to: 'y', interval: 'day' })).rejects.toMatchObject({
        code: 'validation_failed',
      });
    });
  });

  describe('plan changes and pauses (issue #27; after stats: it moves the clock to a period end)', () => {
    let basic: any;
    let premium: any;
    let lifetime: any;
    let reader: Customer;
    let subscriptionId: string;
    let processorId: string;
    const iso = (unix: number) => new Date(unix * 1000).toISOString();
    const asReader = (path: string, body: object, who: Customer = reader) => system.api(path, { key: system.publishableKey, token: who.accessToken, body });
    const asServer = (path: string, body: object) => system.api(path, { key: system.secretKey, body });
    const updatesAtProcessor = async () => (await system.fake.requestsTo('POST', `/v1/subscriptions/${processorId}`)).length;

    beforeAll(async () => {
      const basicProduct = await system.product({ name: 'Basic', entitlements: [PAYWALL] });
      const premiumProduct = await system.product({ name: 'Premium', entitlements: [] });
      basic = await system.price(basicProduct.id, { currency: 'eur', unitAmount: 900, interval: 'month' });
      premium = await system.price(premiumProduct.id, { currency: 'eur', unitAmount: 1500, interval: 'month' });
      lifetime = await system.price(premiumProduct.id, { currency: 'eur', unitAmount: 20000, interval: 'lifetime' });
      reader = await system.reader();
      const subscribed = await system.subscribe(reader, basic.id);
      subscriptionId = subscribed.subscription.subscriptionId;
      processorId = subscribed.processorId;
    });

    it("previews an upgrade with the processor's proration, changing nothing, then makes it at once", async () => {
      const preview = await asReader('/subscriptions/plan-change/preview', { subscriptionId, priceId: premium.id });
      expect(preview.status).toBe(200);
      const item = (await system.fake.object('subscription', processorId))['items'].data[0];
      const prorated = (at: number) => {
        const share = (item.current_period_end - at) / (item.current_period_end - item.current_period_start);
        return { credit: -Math.round(900 * share), charge: Math.round(1500 * share) };
      };
      const [asked] = (await system.fake.requestsTo('POST', '/v1/invoices/create_preview')).slice(-1);
      const previewAt = Number(asked.body.subscription_details.proration_date);
      const { credit, charge } = prorated(previewAt);
      const period = { periodStart: iso(previewAt), periodEnd: iso(item.current_period_end) };
      expect(preview.body).toEqual({
        subscriptionId,
        fromPriceId: basic.id,
        toPriceId: premium.id,
        direction: 'upgrade',
        when: 'now',
        effectiveAt: iso(previewAt),
        currency: 'eur',
        amountDue: credit + charge,
        lines: [
          { description: expect.stringMatching(/^Unused time on Basic after /), amount: credit, proration: true, ...period },
          { description: expect.stringMatching(/^Remaining time on Premium after /), amount: charge, proration: true, ...period },
        ],
        nextAmount: 1500,
        nextChargeAt: iso(item.current_period_end),
      });
      expect(await updatesAtProcessor()).toBe(0);
      expect((await system.subscriptionsOf(reader.id))[0].priceId).toBe(basic.id);

      const changed = await asServer('/subscriptions/plan-change', { subscriptionId, priceId: premium.id });
      expect(changed.status).toBe(200);
      const [update] = (await system.fake.requestsTo('POST', `/v1/subscriptions/${processorId}`)).slice(-1);
      expect(update.body).toMatchObject({ items: [{ id: item.id, price: await system.processorPriceId(premium.id) }], proration_behavior: 'always_invoice' });
      const paid = prorated(Number(update.body.proration_date));
      const invoice = await system.fake.object('invoice', (await system.fake.object('subscription', processorId))['latest_invoice']);
      expect(invoice).toMatchObject({ amount_paid: paid.credit + paid.charge, status: 'paid' });
      expect(changed.body.preview).toMatchObject({ amountDue: paid.credit + paid.charge, toPriceId: premium.id });
      expect(changed.body.subscription).toMatchObject({ subscriptionId, priceId: premium.id, status: 'active', scheduledChange: null });
      expect((await system.subscriptionsOf(reader.id))[0].priceId).toBe(premium.id);
      const updated = await eventually(() => system.outboundFor('subscription.updated', (d) => d.subscriptionId === subscriptionId && d.priceId === premium.id)[0]);
      expect(updated.data).toMatchObject({ priceId: premium.id, previousPriceId: basic.id });
    });

    it("refuses the same price, another publication's price, a lifetime price, another reader's subscription and a manual grant, changing nothing", async () => {
      // A price of another publication: its id exists, but not here.
      const elsewhereId = randomUUID();
      const elsewhere = await system.request(BillingRequests.CreateProduct, { publicationId: elsewhereId, name: 'Elsewhere' });
      const foreign = await system.request(BillingRequests.CreatePrice, {
        publicationId: elsewhereId,
        productId: elsewhere.id,
        price: { currency: 'eur', unitAmount: 100, interval: 'month' },
      });
      const stranger = await system.reader();
      const grant = (await system.admin('/admin/subscriptions', { body: { customerId: stranger.id, priceId: basic.id } })).body;
      const before = await updatesAtProcessor();
      for (const path of ['/subscriptions/plan-change/preview', '/subscriptions/plan-change']) {
        expect((await asServer(path, { subscriptionId, priceId: premium.id })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'priceId' }] });
        expect((await asServer(path, { subscriptionId, priceId: lifetime.id })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'priceId' }] });
        expect((await asServer(path, { subscriptionId, priceId: basic.id, when: 'tomorrow' })).body).toMatchObject({ status: 400, errors: [{ field: 'when' }] });
        expect((await asServer(path, { subscriptionId, priceId: foreign.id })).body).toMatchObject({ status: 404, code: 'not_found' });
        expect((await asReader(path, { subscriptionId, priceId: basic.id }, stranger)).body).toMatchObject({ status: 404, code: 'not_found' });
        expect((await asServer(path, { subscriptionId: grant.subscriptionId, priceId: premium.id })).body).toMatchObject({ status: 409, code: 'conflict' });
        expect((await system.api(path, { key: system.publishableKey, body: { subscriptionId, priceId: basic.id } })).body).toMatchObject({ status: 401, code: 'customer_token_required' });
      }
      // Another publication's keys know nothing of this subscription.
      const other = await system.otherPublication();
      expect((await system.api('/subscriptions/plan-change', { key: other.secretKey, body: { subscriptionId, priceId: basic.id } })).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await system.api('/subscriptions/pause', { key: other.secretKey, body: { subscriptionId, months: 1 } })).body).toMatchObject({ status: 404, code: 'not_found' });
      expect(await updatesAtProcessor()).toBe(before);
      expect((await system.subscriptionsOf(reader.id))[0]).toMatchObject({ priceId: premium.id, scheduledChange: null, pausedUntil: null });
    });

    it('pauses collection for the months asked, resumes early, and announces both', async () => {
      expect((await asReader('/subscriptions/pause', { subscriptionId, months: 4 })).body).toMatchObject({ status: 400, errors: [{ field: 'months' }] });
      expect((await asReader('/subscriptions/pause', { subscriptionId, months: 1 }, await system.reader())).body).toMatchObject({ status: 404 });
      expect((await asReader('/subscriptions/resume', { subscriptionId })).body).toMatchObject({ status: 409, code: 'conflict' });

      const asked = clock.now();
      const paused = await asReader('/subscriptions/pause', { subscriptionId, months: 2 });
      expect(paused.status).toBe(200);
      const until = new Date(Date.UTC(asked.getUTCFullYear(), asked.getUTCMonth() + 2, 1, asked.getUTCHours(), asked.getUTCMinutes(), asked.getUTCSeconds()));
      until.setUTCDate(Math.min(asked.getUTCDate(), new Date(Date.UTC(until.getUTCFullYear(), until.getUTCMonth() + 1, 0)).getUTCDate()));
      expect(paused.body).toMatchObject({ subscriptionId, status: 'active', pausedUntil: until.toISOString() });
      expect((await system.fake.object('subscription', processorId))['pause_collection']).toEqual({ behavior: 'void', resumes_at: until.getTime() / 1000 });
      const pausedEvent = await eventually(() => system.outboundFor('subscription.paused', (d) => d.subscriptionId === subscriptionId)[0]);
      expect(pausedEvent.data).toMatchObject({ pausedUntil: until.toISOString(), status: 'active' });

      const resumed = await asReader('/subscriptions/resume', { subscriptionId });
      expect(resumed.body).toMatchObject({ subscriptionId, status: 'active', pausedUntil: null });
      expect((await system.fake.object('subscription', processorId))['pause_collection']).toBeNull();
      const resumedEvent = await eventually(() => system.outboundFor('subscription.resumed', (d) => d.subscriptionId === subscriptionId)[0]);
      expect(resumedEvent.data.pausedUntil).toBeNull();
      // A pause is announced as paused and resumed, not as updated.
      expect(system.outboundFor('subscription.updated', (d) => d.subscriptionId === subscriptionId && d.pausedUntil !== null)).toEqual([]);

      // Paused at the processor (its dashboard), then resumed by it when the pause ends: its webhooks say so.
      const resumesAt = unixNow() + 86_400;
      await system.deliverOk(await system.fake.updateSubscription(processorId, { pause_collection: { behavior: 'void', resumes_at: resumesAt } }, { created: unixNow() + 2 }));
      await system.eventuallySubscription(reader.id, { pausedUntil: iso(resumesAt) });
      await system.deliverOk(await system.fake.updateSubscription(processorId, { pause_collection: null }, { created: unixNow() + 3 }));
      await system.eventuallySubscription(reader.id, { pausedUntil: null });
      await eventually(() => (system.outboundFor('subscription.resumed', (d) => d.subscriptionId === subscriptionId).length === 2 ? true : undefined));
      expect(system.outboundFor('subscription.paused', (d) => d.subscriptionId === subscriptionId).map((e) => e.data.pausedUntil)).toEqual([until.toISOString(), iso(resumesAt)]);
    });

    it('downgrades at the period end by default: nothing changes until then, then the new price', async () => {
      const [current] = await system.subscriptionsOf(reader.id);
      const preview = await asReader('/subscriptions/plan-change/preview', { subscriptionId, priceId: basic.id });
      expect(preview.body).toEqual({
        subscriptionId,
        fromPriceId: premium.id,
        toPriceId: basic.id,
        direction: 'downgrade',
        when: 'period_end',
        effectiveAt: current.currentPeriodEnd,
        currency: 'eur',
        amountDue: 0,
        lines: [],
        nextAmount: 900,
        nextChargeAt: current.currentPeriodEnd,
      });
      const before = await updatesAtProcessor();
      const changed = await asReader('/subscriptions/plan-change', { subscriptionId, priceId: basic.id });
      expect(changed.body.subscription).toMatchObject({ priceId: premium.id, scheduledChange: { priceId: basic.id, effectiveAt: current.currentPeriodEnd } });
      const sweeper = system.billing.app.get(ScheduledPlanChanges);
      expect(await sweeper.sweep()).toBe(0);
      expect(await updatesAtProcessor()).toBe(before);
      expect((await system.fake.object('subscription', processorId))['items'].data[0].price.id).toBe(await system.processorPriceId(premium.id));

      clock.advance(new Date(current.currentPeriodEnd).getTime() - clock.now().getTime());
      await sweeper.sweep();
      const [update] = (await system.fake.requestsTo('POST', `/v1/subscriptions/${processorId}`)).slice(-1);
      expect(update.body).toMatchObject({ items: [{ price: await system.processorPriceId(basic.id) }], proration_behavior: 'none' });
      expect((await system.subscriptionsOf(reader.id))[0]).toMatchObject({ priceId: basic.id, scheduledChange: null });
      const updated = await eventually(() => system.outboundFor('subscription.updated', (d) => d.subscriptionId === subscriptionId && d.priceId === basic.id && d.previousPriceId)[0]);
      expect(updated.data).toMatchObject({ previousPriceId: premium.id, scheduledChange: null });
    });
  });

  describe('the end of a manual grant (runs last: it moves the clock two days on)', () => {
    it('takes the grant from access at its end, and cancels it with the next sweep', async () => {
      const customer = await system.reader();
      const end = new Date(clock.now().getTime() + 86_400_000).toISOString();
      const grant = (await system.admin('/admin/subscriptions', { body: { customerId: customer.id, priceId: monthly.id, currentPeriodEnd: end } })).body;
      const entitlements = () => system.request(BillingRequests.GetEntitlements, { publicationId: system.publicationId, customerId: customer.id });
      expect((await entitlements()).entitlements).toHaveLength(1);

      clock.advance(2 * 86_400_000);
      expect((await entitlements()).entitlements).toEqual([]);
      expect(await system.billing.app.get(ManualGrantExpiry).sweep()).toBeGreaterThanOrEqual(1);
      expect((await system.subscriptionsOf(customer.id))[0]).toMatchObject({ subscriptionId: grant.subscriptionId, status: 'cancelled' });
      await eventually(() => system.outboundFor('subscription.cancelled', (d) => d.subscriptionId === grant.subscriptionId)[0]);
    });
  });
});
