import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { BillingSystem, ENVIRONMENT_WEBHOOK_SECRET, unixNow, type Customer } from './support/billing';

/**
 * The inbound processor webhook (spec 3, 4.5, 6.1, 6.2; decisions F3) through the gateway, with
 * events made and signed by the fake processor, and what billing then publishes read back from
 * the event stream.
 */
describe('billing: inbound processor events', () => {
  let system: BillingSystem;
  let priceId: string;
  let processorPriceId: string;

  beforeAll(async () => {
    system = await BillingSystem.start();
    await system.connectProcessor();
    const product = await system.product();
    priceId = (await system.price(product.id)).id;
    processorPriceId = await system.processorPriceId(priceId);
    await system.readOutboundEvents();
  }, 60_000);

  afterAll(() => system?.close());

  /** A processor subscription of the customer that billing has not heard of yet, and its created event. */
  async function processorSubscription(customer: Customer, spec: { status?: string; trialDays?: number } = {}, created?: number) {
    return system.fake.createSubscription({ price: processorPriceId, metadata: { customerId: customer.id }, ...spec }, { created });
  }

  describe('signatures', () => {
    it('refuses a missing, malformed, wrong or stale signature with 400 signature_invalid, and stores nothing', async () => {
      const customer = await system.reader();
      const { event } = await processorSubscription(customer);
      const refusals = await Promise.all([
        system.deliver(event, { signature: null }),
        system.deliver(event, { signature: 'not-a-signature' }),
        system.deliver(event, { secret: 'whsec_someone_else' }),
        system.deliver(event, { timestamp: unixNow() - 301 }),
        system.deliver(event, { publication: '6f1c9a3e-0000-4000-8000-000000000000' }),
        system.deliver(event, { publication: null }),
      ]);
      for (const refusal of refusals) expect(refusal).toMatchObject({ status: 400, body: { code: 'signature_invalid' } });
      expect(await system.query('SELECT 1 FROM processor_events WHERE event_id = $1', [event.id])).toEqual([]);
      expect(await system.subscriptionsOf(customer.id)).toEqual([]);
    });

    it('accepts a signature up to 300 s old, and the environment secret when no publication is named', async () => {
      const customer = await system.reader();
      const { event } = await processorSubscription(customer);
      expect(await system.deliver(event, { timestamp: unixNow() - 290 })).toMatchObject({ status: 200, body: { received: true } });
      await system.eventuallySubscription(customer.id, { status: 'active' });

      const other = await system.reader();
      const { event: second } = await system.fake.createSubscription({ price: processorPriceId, metadata: { customerId: other.id, publicationId: system.publicationId } });
      expect(await system.deliver(second, { publication: null, secret: ENVIRONMENT_WEBHOOK_SECRET })).toMatchObject({ status: 200 });
      await system.eventuallySubscription(other.id, { status: 'active' });
    });
  });

  describe('size', () => {
    it('takes an event just under 1 MiB, which as base64 would not fit in one NATS message', async () => {
      const customer = await system.reader();
      const { event } = await processorSubscription(customer);
      // The processor sends events pretty-printed, as Stripe does.
      const sent = (body: object) => Buffer.byteLength(JSON.stringify(body, null, 2));
      const padded = { ...event, padding: 'x'.repeat(1024 * 1024 - sent(event) - 64) };
      expect(sent(padded)).toBeGreaterThan(1024 * 1024 - 100);
      expect(sent(padded)).toBeLessThanOrEqual(1024 * 1024);
      expect(await system.deliver(padded)).toMatchObject({ status: 200, body: { received: true } });
      await system.eventuallySubscription(customer.id, { status: 'active' });
      expect((await system.deliver({ ...event, padding: 'x'.repeat(1024 * 1024) })).body).toMatchObject({ status: 413, code: 'payload_too_large' });
    });
  });

  describe('placement (decisions F6)', () => {
    it('places an event verified with PROCESSOR_WEBHOOK_SECRET in the publication of the customer its metadata names', async () => {
      const customer = await system.reader();
      const { event } = await processorSubscription(customer);
      expect(await system.deliver(event, { publication: null, secret: ENVIRONMENT_WEBHOOK_SECRET })).toMatchObject({ status: 200 });
      await system.eventuallySubscription(customer.id, { status: 'active' });
    });

    it("ignores, under a publication's own secret, a customerId of another publication", async () => {
      const foreign = randomUUID();
      await system.query(
        `INSERT INTO identity.customers (id, publication_id, email, name, password_hash, created_at, updated_at)
         VALUES ($1, $2, $3, 'Foreign', 'x', now(), now())`,
        [foreign, randomUUID(), `foreign-${foreign}@example.com`],
      );
      const { event } = await system.fake.createSubscription({ price: processorPriceId, metadata: { customerId: foreign } });
      expect(await system.deliver(event)).toMatchObject({ status: 200 });
      const processed = await eventually(async () => {
        const [row] = await system.query('SELECT processed_at, outcome FROM processor_events WHERE event_id = $1', [event.id]);
        return row?.processed_at ? row : undefined;
      });
      expect(processed.outcome).toMatch(/^ignored/);
      expect(await system.query('SELECT id FROM subscriptions WHERE customer_id = $1', [foreign])).toEqual([]);
    });
  });

  describe('checkout', () => {
    it('creates the subscription of the customer in the checkout metadata, announced once, with the experiment conversion', async () => {
      const customer = await system.reader();
      const experimentId = '0b7d6a52-52c4-4f7a-9d8e-2f4b6c1a0e11';
      const variantId = '4c1d2e3f-1111-4a2b-8c3d-5e6f7a8b9c0d';
      const started = await system.checkout(customer, priceId, { experimentId, variantId });
      const { events, subscription } = await system.fake.completeCheckout(started.body.sessionId);
      // Only the checkout: billing asks the processor for the subscription it made.
      const checkoutCompleted = events.find((e) => e.type === 'checkout.session.completed')!;
      expect(await system.deliver(checkoutCompleted)).toMatchObject({ status: 200 });

      const stored = await system.eventuallySubscription(customer.id, { status: 'active' });
      const item = subscription!['items'].data[0];
      expect(stored).toMatchObject({
        customerId: customer.id,
        priceId,
        source: 'processor',
        cancelAtPeriodEnd: false,
        currentPeriodStart: new Date(item.current_period_start * 1000).toISOString(),
        currentPeriodEnd: new Date(item.current_period_end * 1000).toISOString(),
      });
      for (const event of events) await system.deliverOk(event);

      const mine = (data: any) => data.customerId === customer.id;
      await eventually(() => (system.outboundFor('invoice.paid', mine).length === 1 ? true : undefined));
      expect(system.outboundFor('subscription.created', mine)).toHaveLength(1);
      expect(system.outboundFor('subscription.created', mine)[0].data).toEqual({
        subscriptionId: stored.subscriptionId,
        customerId: customer.id,
        priceId,
        status: 'active',
        currentPeriodStart: stored.currentPeriodStart,
        currentPeriodEnd: stored.currentPeriodEnd,
        source: 'processor',
        cancelAtPeriodEnd: false,
        trialStart: null,
        trialEnd: null,
        cancellationReason: null,
        pausedUntil: null,
        scheduledChange: null,
      });
      expect(system.outboundFor('experiment.converted', mine).map((e) => e.data)).toEqual([
        { experimentId, variantId, paywallId: '', visitorId: null, customerId: customer.id },
      ]);
      expect(system.outboundFor('internal.entitlements.changed', mine).length).toBeGreaterThan(0);
    });

    it('makes a lifetime purchase a subscription that never ends', async () => {
      const product = await system.product();
      const lifetime = await system.price(product.id, { currency: 'usd', unitAmount: 9900, interval: 'lifetime' });
      const customer = await system.reader();
      const started = await system.checkout(customer, lifetime.id);
      const { events } = await system.fake.completeCheckout(started.body.sessionId);
      expect(events.map((e) => e.type)).toEqual(['payment_intent.succeeded', 'checkout.session.completed']);
      for (const event of events) await system.deliverOk(event);
      expect(await system.eventuallySubscription(customer.id, { status: 'active' })).toMatchObject({
        priceId: lifetime.id,
        currentPeriodEnd: '9999-12-31T23:59:59.999Z',
      });
    });
  });

  describe('the reader back from checkout before the webhook (issue 21)', () => {
    const confirm = (customer: Customer, sessionId: string) =>
      system.api('/subscriptions/checkout/confirm', { key: system.publishableKey, token: customer.accessToken, body: { sessionId } });
    /** Waits until billing has processed each event delivered. */
    const processed = (events: Array<{ id: string }>) =>
      eventually(async () => {
        const rows = await system.query('SELECT processed_at FROM processor_events WHERE event_id = ANY($1)', [events.map((e) => e.id)]);
        return rows.length === events.length && rows.every((row) => row.processed_at) ? true : undefined;
      });

    it('records the paid checkout when asked, exactly once with the webhook that comes later', async () => {
      const customer = await system.reader();
      const experimentId = '5d0c6a52-52c4-4f7a-9d8e-2f4b6c1a0e22';
      const variantId = '7e1d2e3f-1111-4a2b-8c3d-5e6f7a8b9c0e';
      const started = await system.checkout(customer, priceId, { experimentId, variantId });
      const sessionId = started.body.sessionId;

      // Not paid yet: nothing to record.
      expect((await confirm(customer, sessionId)).body).toEqual({ sessionId, status: 'open', subscription: null, purchase: null });
      expect(await system.subscriptionsOf(customer.id)).toEqual([]);

      // Paid at the processor, its events not sent yet: the confirmation records the subscription.
      const { events } = await system.fake.completeCheckout(sessionId);
      const confirmed = await confirm(customer, sessionId);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toMatchObject({ sessionId, status: 'complete', subscription: { customerId: customer.id, priceId, status: 'active', source: 'processor' } });
      const [stored] = await system.subscriptionsOf(customer.id);
      expect(stored).toEqual(confirmed.body.subscription);
      expect(await system.query('SELECT completed_at FROM checkout_sessions WHERE processor_session_id = $1', [sessionId])).toEqual([{ completed_at: expect.any(Date) }]);
      // Asked again, the same answer.
      expect((await confirm(customer, sessionId)).body).toEqual(confirmed.body);

      // Then the processor's events arrive: the subscription stays the one, announced once.
      for (const event of events) await system.deliverOk(event);
      await processed(events);
      const mine = (data: any) => data.customerId === customer.id;
      await eventually(() => (system.outboundFor('invoice.paid', mine).length === 1 ? true : undefined));
      expect(await system.subscriptionsOf(customer.id)).toEqual([stored]);
      expect(system.outboundFor('subscription.created', mine).map((e) => e.data.subscriptionId)).toEqual([stored.subscriptionId]);
      expect(system.outboundFor('subscription.updated', mine)).toEqual([]);
      expect(system.outboundFor('experiment.converted', mine).map((e) => e.data)).toEqual([{ experimentId, variantId, paywallId: '', visitorId: null, customerId: customer.id }]);
    });

    it('records a lifetime purchase the webhook has not brought, and a checkout whose webhook came first, once', async () => {
      const product = await system.product();
      const lifetime = await system.price(product.id, { currency: 'usd', unitAmount: 9900, interval: 'lifetime' });
      const buyer = await system.reader();
      const bought = await system.checkout(buyer, lifetime.id);
      const { events } = await system.fake.completeCheckout(bought.body.sessionId);
      expect((await confirm(buyer, bought.body.sessionId)).body).toMatchObject({ status: 'complete', subscription: { priceId: lifetime.id, status: 'active', currentPeriodEnd: '9999-12-31T23:59:59.999Z' } });
      for (const event of events) await system.deliverOk(event);
      await processed(events);
      expect(await system.subscriptionsOf(buyer.id)).toHaveLength(1);

      const subscriber = await system.reader();
      const started = await system.checkout(subscriber, priceId);
      const paid = await system.fake.completeCheckout(started.body.sessionId);
      for (const event of paid.events) await system.deliverOk(event);
      await processed(paid.events);
      const [stored] = await system.subscriptionsOf(subscriber.id);
      expect((await confirm(subscriber, started.body.sessionId)).body).toEqual({ sessionId: started.body.sessionId, status: 'complete', subscription: stored, purchase: null });
      expect(await system.subscriptionsOf(subscriber.id)).toEqual([stored]);
    });

    it("is the customer's own checkout only: anyone else's, another publication's or an unknown one is 404, and bad input 400", async () => {
      const customer = await system.reader();
      const stranger = await system.reader();
      const started = await system.checkout(customer, priceId);
      const sessionId = started.body.sessionId;
      await system.fake.completeCheckout(sessionId);

      expect((await confirm(stranger, sessionId)).body).toMatchObject({ status: 404, code: 'not_found' });
      const withSecret = (body: Record<string, unknown>, key = system.secretKey) => system.api('/subscriptions/checkout/confirm', { key, body });
      expect((await withSecret({ sessionId, customerId: stranger.id })).body).toMatchObject({ code: 'not_found' });
      expect((await confirm(customer, 'cs_test_not_a_session_of_ours')).body).toMatchObject({ code: 'not_found' });
      const other = await system.otherPublication();
      expect((await withSecret({ sessionId, customerId: customer.id }, other.secretKey)).body).toMatchObject({ code: 'not_found' });
      expect(await system.subscriptionsOf(customer.id)).toEqual([]);

      expect((await confirm(customer, 'nope')).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'sessionId' }] });
      expect((await withSecret({ sessionId })).body).toMatchObject({ status: 400, errors: [{ field: 'customerId' }] });
      expect((await system.api('/subscriptions/checkout/confirm', { key: system.publishableKey, body: { sessionId } })).body).toMatchObject({ status: 401, code: 'customer_token_required' });
      expect((await system.api('/subscriptions/checkout/confirm', { key: system.publishableKey, token: stranger.accessToken, body: { sessionId, customerId: customer.id } })).body).toMatchObject({ status: 403 });

      // The processor cannot be asked: 502, nothing recorded; asked again later, it is.
      await system.fake.failNext({ method: 'GET', path: '/v1/checkout/sessions/*' });
      expect((await confirm(customer, sessionId)).body).toMatchObject({ status: 502, code: 'processor_error' });
      expect(await system.subscriptionsOf(customer.id)).toEqual([]);
      expect((await withSecret({ sessionId, customerId: customer.id })).body).toMatchObject({ status: 'complete', subscription: { customerId: customer.id } });
    });
  });

  describe('status mapping (spec 3.1)', () => {
    it.each([
      ['active', 'active'],
      ['trialing', 'trialing'],
      ['past_due', 'past_due'],
      ['canceled', 'cancelled'],
      ['unpaid', 'past_due'],
    ])('processor status %s is %s', async (processorStatus, status) => {
      const customer = await system.reader();
      const start = unixNow() - 100;
      const { subscription, event } = await processorSubscription(customer, {}, start);
      await system.deliverOk(event);
      await system.eventuallySubscription(customer.id, { status: 'active' });
      await system.deliverOk(await system.fake.updateSubscription(subscription['id'], { status: processorStatus }, { created: start + 1 }));
      await system.eventuallySubscription(customer.id, { status });
    });
  });

  describe('transitions (spec 3.2)', () => {
    let customer: Customer;
    let processorId: string;
    let clock: number;
    const next = () => (clock += 1);
    const mine = (data: any) => data.customerId === customer.id;

    beforeAll(async () => {
      customer = await system.reader();
      clock = unixNow() - 1000;
      const { subscription, event } = await processorSubscription(customer, { trialDays: 14 }, next());
      processorId = subscription['id'];
      await system.deliverOk(event);
      await system.eventuallySubscription(customer.id, { status: 'trialing' });
    });

    it('stores a new subscription on customer.subscription.created, with its trial', async () => {
      const [stored] = await system.subscriptionsOf(customer.id);
      expect(stored.trialStart).not.toBeNull();
      expect(stored.trialEnd).toBe(stored.currentPeriodEnd);
      await eventually(() => (system.outboundFor('subscription.created', mine).length === 1 ? true : undefined));
    });

    it('leaves trialing on customer.subscription.updated: subscription.updated and subscription.trial_ended', async () => {
      await system.deliverOk(await system.fake.updateSubscription(processorId, { status: 'active', trial_end: clock }, { created: next() }));
      await system.eventuallySubscription(customer.id, { status: 'active' });
      await eventually(() => (system.outboundFor('subscription.trial_ended', mine).length === 1 ? true : undefined));
      expect(system.outboundFor('subscription.trial_ended', mine)[0].data.status).toBe('active');
    });

    it('updates the billing period on customer.subscription.updated', async () => {
      const periodEnd = unixNow() + 40 * 86_400;
      await system.deliverOk(await system.fake.updateSubscription(processorId, { current_period_end: periodEnd }, { created: next() }));
      await system.eventuallySubscription(customer.id, { currentPeriodEnd: new Date(periodEnd * 1000).toISOString() });
    });

    it('is past_due on invoice.payment_failed, and active again on invoice.payment_succeeded', async () => {
      await system.deliverOk(await system.fake.invoiceEvent(processorId, 'invoice.payment_failed', { created: next() }));
      await system.eventuallySubscription(customer.id, { status: 'past_due' });
      await system.deliverOk(await system.fake.invoiceEvent(processorId, 'invoice.payment_succeeded', { created: next() }));
      await system.eventuallySubscription(customer.id, { status: 'active' });
      await eventually(() => (system.outboundFor('invoice.paid', mine).length === 1 ? true : undefined));
      expect(system.outboundFor('invoice.payment_failed', mine)).toHaveLength(1);
      expect(system.outboundFor('invoice.payment_failed', mine)[0].data).toMatchObject({ customerId: customer.id, amountDue: 900, amountPaid: 0, currency: 'eur' });
    });

    it('announces invoice.upcoming without changing anything', async () => {
      await system.deliverOk(await system.fake.invoiceEvent(processorId, 'invoice.upcoming', { created: next() }));
      const upcoming = await eventually(() => system.outboundFor('invoice.upcoming', mine)[0]);
      expect(upcoming.data).toMatchObject({ invoiceId: null, customerId: customer.id, amountDue: 900 });
      expect((await system.subscriptionsOf(customer.id))[0].status).toBe('active');
    });

    it('schedules the cancellation on an update with cancel_at_period_end, then cancels on customer.subscription.deleted, announced once', async () => {
      await system.deliverOk(await system.fake.updateSubscription(processorId, { cancel_at_period_end: true }, { created: next() }));
      await system.eventuallySubscription(customer.id, { status: 'active', cancelAtPeriodEnd: true });
      await system.deliverOk(await system.fake.deleteSubscription(processorId, { created: next() }));
      await system.eventuallySubscription(customer.id, { status: 'cancelled' });
      await eventually(() => (system.outboundFor('subscription.updated', mine).some((e) => e.data.status === 'cancelled') ? true : undefined));
      expect(system.outboundFor('subscription.cancelled', mine)).toHaveLength(1);
      expect(system.outboundFor('subscription.cancelled', mine)[0].data).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    });

    it('does not bring a cancelled subscription back on a late invoice.payment_succeeded', async () => {
      await system.deliverOk(await system.fake.invoiceEvent(processorId, 'invoice.payment_succeeded', { created: next() }));
      await eventually(() => (system.outboundFor('invoice.paid', mine).length === 2 ? true : undefined));
      expect((await system.subscriptionsOf(customer.id))[0].status).toBe('cancelled');
    });

    it('keeps what the processor says of the customer on customer.created and customer.updated', async () => {
      const buyer = await system.reader();
      expect((await system.checkout(buyer, priceId)).status).toBe(201);
      const [account] = await system.query('SELECT processor_customer_id, email FROM processor_customers WHERE customer_id = $1', [buyer.id]);
      expect(account.email).toBe(buyer.email);
      await system.deliverOk(await system.fake.customerEvent(account.processor_customer_id, 'customer.created', { email: 'first@example.com' }));
      await system.deliverOk(await system.fake.customerEvent(account.processor_customer_id, 'customer.updated', { email: 'second@example.com', name: 'Renamed' }));
      await eventually(async () => {
        const [row] = await system.query('SELECT email, name FROM processor_customers WHERE customer_id = $1', [buyer.id]);
        return row?.email === 'second@example.com' && row.name === 'Renamed' ? row : undefined;
      });
    });
  });

  describe('the billing portal of a subscriber the processor told us of (issue 24)', () => {
    async function portalOf(customer: Customer) {
      const portal = await system.api('/subscriptions/portal', { key: system.publishableKey, token: customer.accessToken, body: { returnUrl: 'https://billing.example/account' } });
      const [made] = (await system.fake.requestsTo('POST', '/v1/billing_portal/sessions')).slice(-1);
      return { portal, made };
    }

    it('opens the portal for a reader whose subscription an operator started at the processor, learned from its subscription event', async () => {
      const customer = await system.reader();
      const { subscription, event } = await processorSubscription(customer);
      await system.deliverOk(event);
      await system.eventuallySubscription(customer.id, { status: 'active' });
      const { portal, made } = await portalOf(customer);
      expect(portal.status).toBe(201);
      expect(portal.body.url).toMatch(new RegExp(`^${system.fake.url}/portal/bps_`));
      expect(made.body).toEqual({ customer: subscription['customer'], return_url: 'https://billing.example/account' });
    });

    it('opens the portal for a reader whose first word from the processor is an invoice of such a subscription', async () => {
      const customer = await system.reader();
      const { subscription } = await processorSubscription(customer);
      await system.deliverOk(await system.fake.invoiceEvent(subscription['id'], 'invoice.payment_succeeded'));
      await system.eventuallySubscription(customer.id, { status: 'active' });
      const { portal, made } = await portalOf(customer);
      expect(portal.status).toBe(201);
      expect(made.body.customer).toBe(subscription['customer']);
    });
  });

  describe('delivery order and repetition (decisions F3)', () => {
    it('handles the same event delivered twice once: one effect, one outbound event', async () => {
      const customer = await system.reader();
      const start = unixNow() - 100;
      const { subscription, event } = await processorSubscription(customer, {}, start);
      await system.deliverOk(event);
      await system.deliverOk(event);
      const failed = await system.fake.invoiceEvent(subscription['id'], 'invoice.payment_failed', { created: start + 1 });
      await system.deliverOk(failed);
      await system.deliverOk(failed);
      await system.eventuallySubscription(customer.id, { status: 'past_due' });

      const mine = (data: any) => data.customerId === customer.id;
      await eventually(() => (system.outboundFor('invoice.payment_failed', mine).length > 0 ? true : undefined));
      // Anything published twice would be here by now: the second copies were answered before the first ones were published.
      await system.deliverOk(await system.fake.invoiceEvent(subscription['id'], 'invoice.upcoming', { created: start + 2 }));
      await eventually(() => (system.outboundFor('invoice.upcoming', mine).length > 0 ? true : undefined));
      expect(system.outboundFor('subscription.created', mine)).toHaveLength(1);
      expect(system.outboundFor('invoice.payment_failed', mine)).toHaveLength(1);
      expect(system.outboundFor('subscription.updated', mine)).toHaveLength(1);
      expect(await system.subscriptionsOf(customer.id)).toHaveLength(1);
      expect(await system.query('SELECT count(*)::int AS n FROM processor_events WHERE event_id = $1', [failed.id])).toEqual([{ n: 1 }]);
    });

    it('ends in the right state when updated arrives before created', async () => {
      const customer = await system.reader();
      const start = unixNow() - 100;
      const { subscription, event: created } = await processorSubscription(customer, { trialDays: 7 }, start);
      const updated = await system.fake.updateSubscription(subscription['id'], { status: 'past_due' }, { created: start + 5 });
      await system.deliverOk(updated);
      await system.eventuallySubscription(customer.id, { status: 'past_due' });
      await system.deliverOk(created);
      await eventually(async () => {
        const [row] = await system.query('SELECT processed_at FROM processor_events WHERE event_id = $1', [created.id]);
        return row?.processed_at ? row : undefined;
      });
      const subscriptions = await system.subscriptionsOf(customer.id);
      expect(subscriptions).toHaveLength(1);
      expect(subscriptions[0].status).toBe('past_due');
    });

    it('asks the processor when two events of the same second arrive in the wrong order', async () => {
      const customer = await system.reader();
      const second = unixNow() - 50;
      const { subscription, event: created } = await processorSubscription(customer, { trialDays: 7 }, second);
      const updated = await system.fake.updateSubscription(subscription['id'], { status: 'active', trial_end: second }, { created: second });
      await system.deliverOk(updated);
      await system.eventuallySubscription(customer.id, { status: 'active' });
      const reads = (await system.fake.requestsTo('GET', `/v1/subscriptions/${subscription['id']}`)).length;
      await system.deliverOk(created);
      await eventually(async () => ((await system.fake.requestsTo('GET', `/v1/subscriptions/${subscription['id']}`)).length > reads ? true : undefined));
      await eventually(async () => {
        const [row] = await system.query('SELECT processed_at FROM processor_events WHERE event_id = $1', [created.id]);
        return row?.processed_at ? row : undefined;
      });
      expect((await system.subscriptionsOf(customer.id))[0].status).toBe('active');
    });
  });
});
