import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { eventually } from '@gatehouse/testing';
import { startFakeProcessor, type FakeProcessor } from '../index';

/** The official SDK, pointed at the fake exactly as billing points it (PROCESSOR_API_URL). */
function sdkFor(fake: FakeProcessor, key = 'sk_test_fake_123456'): Stripe {
  const url = new URL(fake.url);
  return new Stripe(key, { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
}

describe('fake processor', () => {
  let fake: FakeProcessor;
  let stripe: Stripe;

  beforeAll(async () => {
    fake = await startFakeProcessor();
    stripe = sdkFor(fake);
  });

  afterAll(() => fake.close());

  it('answers the SDK with objects shaped like the processor’s and keeps what it was sent', async () => {
    const customer = await stripe.customers.create({ email: 'reader@example.com', metadata: { customerId: 'c-1' } });
    const product = await stripe.products.create({ name: 'Digital' });
    const price = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 900, recurring: { interval: 'month' } });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'https://news.example/ok',
      cancel_url: 'https://news.example/no',
      metadata: { customerId: 'c-1' },
      subscription_data: { metadata: { customerId: 'c-1' }, trial_period_days: 7 },
    });

    expect(customer).toMatchObject({ object: 'customer', email: 'reader@example.com', metadata: { customerId: 'c-1' } });
    expect(price).toMatchObject({ object: 'price', unit_amount: 900, currency: 'eur', recurring: { interval: 'month' } });
    expect(session.url).toBe(`${fake.url}/checkout/${session.id}`);
    const [sent] = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(sent.apiKey).toBe('sk_test_fake_123456');
    expect(sent.body).toMatchObject({
      line_items: [{ price: price.id, quantity: '1' }],
      metadata: { customerId: 'c-1' },
      subscription_data: { metadata: { customerId: 'c-1' }, trial_period_days: '7' },
    });

    const { subscription, events } = fake.completeCheckout(session.id);
    expect(events.map((e) => e.type)).toEqual(['customer.subscription.created', 'checkout.session.completed']);
    const retrieved = await stripe.subscriptions.retrieve(subscription!['id']);
    expect(retrieved).toMatchObject({ status: 'trialing', metadata: { customerId: 'c-1' } });
    expect(retrieved.items.data[0].current_period_end).toBe(retrieved.trial_end);

    const cancelled = await stripe.subscriptions.update(retrieved.id, { cancel_at_period_end: true });
    expect(cancelled.cancel_at_period_end).toBe(true);
    expect((await stripe.subscriptions.cancel(retrieved.id)).status).toBe('canceled');
  });

  it('runs a payment-mode checkout of a one-time price with a PaymentIntent, and refuses a price of the other kind in either mode', async () => {
    const customer = await stripe.customers.create({ email: 'pass@example.com' });
    const product = await stripe.products.create({ name: 'Day pass' });
    const oneTime = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 200 });
    const monthly = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 900, recurring: { interval: 'month' } });
    expect(oneTime).toMatchObject({ type: 'one_time', recurring: null });
    const create = (mode: 'payment' | 'subscription', price: string) =>
      stripe.checkout.sessions.create({ mode, customer: customer.id, line_items: [{ price, quantity: 1 }], success_url: 'https://news.example/ok', payment_intent_data: mode === 'payment' ? { metadata: { customerId: 'c-2' } } : undefined });
    await expect(create('subscription', oneTime.id)).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('recurring price') });
    await expect(create('payment', monthly.id)).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('recurring price') });

    const session = await create('payment', oneTime.id);
    expect(session).toMatchObject({ mode: 'payment', payment_intent: null, amount_total: 200, currency: 'eur' });
    const { paymentIntent, subscription, events } = fake.completeCheckout(session.id);
    expect(subscription).toBeNull();
    expect(events.map((e) => e.type)).toEqual(['payment_intent.succeeded', 'checkout.session.completed']);
    expect(await stripe.paymentIntents.retrieve(paymentIntent!['id'])).toMatchObject({ status: 'succeeded', amount: 200, currency: 'eur', customer: customer.id, metadata: { customerId: 'c-2' } });
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'complete', payment_status: 'paid', payment_intent: paymentIntent!['id'], subscription: null });
  });

  it('takes a payment-mode checkout of an inline one-time price: paying makes a payment intent, and a refund sends charge.refunded', async () => {
    const product = await stripe.products.create({ name: 'Gift' });
    const monthly = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 900, recurring: { interval: 'month' } });
    const recurringRefused = stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price: monthly.id, quantity: 1 }], success_url: 'https://news.example/ok' });
    await expect(recurringRefused).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('recurring price') });

    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      customer_email: 'buyer@example.com',
      line_items: [{ price_data: { currency: 'eur', unit_amount: 2700, product: product.id }, quantity: 1 }],
      success_url: 'https://news.example/ok',
      cancel_url: 'https://news.example/no',
      metadata: { giftId: 'g-1' },
      payment_intent_data: { metadata: { giftId: 'g-1' } },
    });
    expect(session).toMatchObject({ mode: 'payment', amount_total: 2700, currency: 'eur', payment_intent: null, status: 'open' });

    const { events } = fake.completeCheckout(session.id);
    expect(events.map((e) => e.type)).toEqual(['payment_intent.succeeded', 'checkout.session.completed']);
    const completed = events[1].data.object;
    expect(completed).toMatchObject({ mode: 'payment', status: 'complete', payment_status: 'paid', subscription: null, payment_intent: expect.stringMatching(/^pi_/) });
    const paymentIntent = await stripe.paymentIntents.retrieve(completed['payment_intent']);
    expect(paymentIntent).toMatchObject({ amount: 2700, currency: 'eur', status: 'succeeded', customer: completed['customer'], metadata: { giftId: 'g-1' } });

    const refund = await stripe.refunds.create({ payment_intent: paymentIntent.id, metadata: { giftId: 'g-1' } }, { idempotencyKey: 'gift-refund:g-1' });
    expect(refund).toMatchObject({ object: 'refund', amount: 2700, payment_intent: paymentIntent.id, status: 'succeeded', metadata: { giftId: 'g-1' } });
    const refunded = fake.events.at(-1)!;
    expect(refunded).toMatchObject({ type: 'charge.refunded', data: { object: { payment_intent: paymentIntent.id, amount_refunded: 2700, refunded: true, metadata: { giftId: 'g-1' } } } });
    // The same key again is the same refund, replayed; a new one is refused: nothing is left to give back.
    expect(await stripe.refunds.create({ payment_intent: paymentIntent.id }, { idempotencyKey: 'gift-refund:g-1' })).toMatchObject({ id: refund.id });
    await expect(stripe.refunds.create({ payment_intent: paymentIntent.id })).rejects.toMatchObject({ statusCode: 400 });
    // Listed and retrieved as the processor's API does.
    expect((await stripe.refunds.list({ payment_intent: paymentIntent.id })).data.map((r) => r.id)).toEqual([refund.id]);
    expect((await stripe.refunds.list({ payment_intent: 'pi_other' })).data).toEqual([]);
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({ id: refund.id, amount: 2700, charge: refunded.data.object['id'] });
  });

  it('speaks coupons and promotion codes: a checkout redeems one, the subscription carries the discount, and the limits refuse as the processor does', async () => {
    const customer = await stripe.customers.create({ email: 'offer@example.com' });
    const product = await stripe.products.create({ name: 'Offers' });
    const price = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 600, recurring: { interval: 'month' } });
    await expect(stripe.coupons.create({ duration: 'once' })).rejects.toMatchObject({ statusCode: 400, message: 'You must pass exactly one of percent_off or amount_off.' });
    const coupon = await stripe.coupons.create({ amount_off: 300, currency: 'eur', duration: 'repeating', duration_in_months: 3 });
    expect(coupon).toMatchObject({ object: 'coupon', amount_off: 300, duration: 'repeating', duration_in_months: 3, times_redeemed: 0, valid: true });
    const code = await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'SPRING3', max_redemptions: 1, restrictions: { first_time_transaction: true } });
    expect(code).toMatchObject({ object: 'promotion_code', code: 'SPRING3', active: true, max_redemptions: 1, promotion: { type: 'coupon', coupon: coupon.id } });
    await expect(stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'spring3' })).rejects.toMatchObject({ statusCode: 400 });

    const session = (extra: Partial<Stripe.Checkout.SessionCreateParams>, buyer = customer.id) =>
      stripe.checkout.sessions.create({ mode: 'subscription', customer: buyer, line_items: [{ price: price.id, quantity: 1 }], success_url: 'https://news.example/ok', ...extra });
    await expect(session({ discounts: [{ promotion_code: code.id }], allow_promotion_codes: true })).rejects.toMatchObject({
      message: 'You may only specify one of these parameters: allow_promotion_codes, discounts.',
    });
    const discounted = await session({ discounts: [{ promotion_code: code.id }] });
    expect(discounted).toMatchObject({ discounts: [{ coupon: coupon.id, promotion_code: code.id }], amount_subtotal: 600, amount_total: 300 });
    const { subscription, events } = fake.completeCheckout(discounted.id);
    const retrieved = await stripe.subscriptions.retrieve(subscription!['id']);
    const discount = fake.get('discount', retrieved.discounts[0] as string)!;
    expect(discount).toMatchObject({ object: 'discount', promotion_code: code.id, source: { coupon: coupon.id, type: 'coupon' }, subscription: retrieved.id });
    expect(events.find((e) => e.type === 'invoice.payment_succeeded')!.data.object['amount_paid']).toBe(300);
    await expect(stripe.promotionCodes.retrieve(code.id)).resolves.toMatchObject({ times_redeemed: 1 });

    await expect(session({ discounts: [{ promotion_code: code.id }] })).rejects.toMatchObject({ message: 'This promotion code has been redeemed the maximum number of times.' });
    const welcome = await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'WELCOME', restrictions: { first_time_transaction: true } });
    await expect(session({ discounts: [{ promotion_code: welcome.id }] })).rejects.toMatchObject({
      message: 'This promotion code cannot be redeemed because the associated customer has prior transactions.',
    });
    await stripe.promotionCodes.update(welcome.id, { active: false });
    const stranger = await stripe.customers.create({ email: 'new@example.com' });
    await expect(session({ discounts: [{ promotion_code: welcome.id }] }, stranger.id)).rejects.toMatchObject({ message: 'This promotion code is inactive.' });
    const trial = await session({ subscription_data: { trial_period_days: 30 }, allow_promotion_codes: true }, stranger.id);
    expect(trial).toMatchObject({ allow_promotion_codes: true, discounts: [], amount_total: 0 });
  });

  it('applies a coupon to an existing subscription as the processor does: redeemed, on the subscription, discounting its renewals while it runs', async () => {
    const product = await stripe.products.create({ name: 'Kept' });
    const price = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 800, recurring: { interval: 'month' } });
    const { subscription } = fake.createSubscription({ price: price.id });
    const coupon = await stripe.coupons.create({ percent_off: 25, duration: 'repeating', duration_in_months: 2 });
    const spent = await stripe.coupons.create({ amount_off: 100, currency: 'eur', duration: 'once', max_redemptions: 1 });
    const updated = await stripe.subscriptions.update(subscription['id'], { discounts: [{ coupon: coupon.id }] });
    expect(updated.discounts).toHaveLength(1);
    expect(fake.get('discount', updated.discounts[0] as string)).toMatchObject({ subscription: subscription['id'], source: { coupon: coupon.id }, end: expect.any(Number) });
    expect(await stripe.coupons.retrieve(coupon.id)).toMatchObject({ times_redeemed: 1 });
    expect(fake.events.at(-1)).toMatchObject({ type: 'customer.subscription.updated', data: { previous_attributes: { discounts: [] } } });
    expect(fake.invoiceEvent(subscription['id'], 'invoice.payment_succeeded').data.object).toMatchObject({ amount_paid: 600 });

    // A used-up coupon is refused and changes nothing; an empty value removes the discount.
    await stripe.subscriptions.update(subscription['id'], { discounts: [{ coupon: spent.id }] });
    await expect(stripe.subscriptions.update(subscription['id'], { discounts: [{ coupon: spent.id }] })).rejects.toMatchObject({ statusCode: 400 });
    expect((await stripe.subscriptions.retrieve(subscription['id'])).discounts).toHaveLength(1);
    expect(fake.invoiceEvent(subscription['id'], 'invoice.payment_succeeded').data.object).toMatchObject({ amount_paid: 700 });
    expect(fake.invoiceEvent(subscription['id'], 'invoice.payment_succeeded').data.object).toMatchObject({ amount_paid: 800 });
    expect((await stripe.subscriptions.update(subscription['id'], { discounts: '' })).discounts).toEqual([]);
  });

  it('refuses calls without a secret key, as the processor does', async () => {
    await expect(sdkFor(fake, 'pk_test_nope').customers.create({})).rejects.toMatchObject({ statusCode: 401 });
  });

  it('prorates a price change as the processor does, refuses a bad one changing nothing, and pauses and resumes collection', async () => {
    const product = await stripe.products.create({ name: 'Weekly' });
    const monthly = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 900, recurring: { interval: 'month' } });
    const yearly = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 9000, recurring: { interval: 'year' } });
    const dollars = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 900, recurring: { interval: 'month' } });
    const { subscription } = fake.createSubscription({ price: monthly.id });
    const item = subscription['items'].data[0];
    const halfway = (item.current_period_start + item.current_period_end) / 2;

    const preview = await stripe.invoices.createPreview({
      subscription: subscription['id'],
      subscription_details: { items: [{ id: item.id, price: yearly.id }], proration_behavior: 'always_invoice', proration_date: halfway },
    });
    expect(preview.lines.data.map((line) => [line.amount, line.parent?.subscription_item_details?.proration])).toEqual([
      [-450, true],
      [9000, false],
    ]);
    expect(preview.amount_due).toBe(8550);

    await expect(stripe.subscriptions.update(subscription['id'], { items: [{ id: item.id, price: dollars.id }] })).rejects.toMatchObject({ statusCode: 400 });
    expect((await stripe.subscriptions.retrieve(subscription['id'])).items.data[0].price.id).toBe(monthly.id);

    const changed = await stripe.subscriptions.update(subscription['id'], { items: [{ id: item.id, price: yearly.id }], proration_behavior: 'always_invoice', proration_date: halfway });
    expect(changed.items.data[0]).toMatchObject({ price: { id: yearly.id }, current_period_start: halfway });
    expect(await stripe.invoices.retrieve(changed.latest_invoice as string)).toMatchObject({ amount_paid: 8550, status: 'paid' });
    expect(fake.events.slice(-2).map((e) => e.type)).toEqual(['customer.subscription.updated', 'invoice.payment_succeeded']);

    const resumesAt = Math.floor(Date.now() / 1000) + 30 * 86_400;
    expect((await stripe.subscriptions.update(changed.id, { pause_collection: { behavior: 'void', resumes_at: resumesAt } })).pause_collection).toEqual({ behavior: 'void', resumes_at: resumesAt });
    const resumed = await stripe.subscriptions.update(changed.id, { pause_collection: '' });
    expect(resumed).toMatchObject({ pause_collection: null, status: 'active' });
    expect(fake.events.at(-1)).toMatchObject({ type: 'customer.subscription.updated', data: { previous_attributes: { pause_collection: { behavior: 'void' } } } });
    await expect(stripe.subscriptions.update(changed.id, { pause_collection: { behavior: 'void', resumes_at: 1 } })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('sells seats: a checkout line of several units, an item of that quantity charged per unit, and a change of quantity alone', async () => {
    const customer = await stripe.customers.create({ email: 'buyer@example.com' });
    const product = await stripe.products.create({ name: 'Team' });
    const price = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 500, recurring: { interval: 'month' } });
    const checkout = (quantity: number) =>
      stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: price.id, quantity }], success_url: 'https://news.example/ok', cancel_url: 'https://news.example/no' });
    await expect(checkout(0)).rejects.toMatchObject({ statusCode: 400 });
    const session = await checkout(5);
    expect(session.amount_subtotal).toBe(2500);
    const { subscription, events } = fake.completeCheckout(session.id);
    const item = subscription!['items'].data[0];
    expect(item.quantity).toBe(5);
    expect(events.find((e) => e.type === 'invoice.payment_succeeded')?.data.object).toMatchObject({ amount_paid: 2500 });

    await expect(stripe.subscriptions.update(subscription!['id'], { items: [{ id: 'si_other', quantity: 8 }] })).rejects.toMatchObject({ statusCode: 400 });
    await expect(stripe.subscriptions.update(subscription!['id'], { items: [{ id: item.id, quantity: 0 }] })).rejects.toMatchObject({ statusCode: 400 });
    const more = await stripe.subscriptions.update(subscription!['id'], { items: [{ id: item.id, quantity: 8 }] });
    expect(more.items.data[0]).toMatchObject({ quantity: 8, price: { id: price.id } });
    expect(fake.events.at(-1)).toMatchObject({ type: 'customer.subscription.updated', data: { previous_attributes: { items: { data: [{ quantity: 5 }] } } } });
  });

  it('deletes a customer for good, cancelling its subscriptions, as the processor does', async () => {
    const customer = await stripe.customers.create({ email: 'leaving@example.com' });
    const product = await stripe.products.create({ name: 'Leaving' });
    const price = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 500, recurring: { interval: 'month' } });
    const { subscription } = fake.createSubscription({ customer: customer.id, price: price.id });

    await expect(stripe.customers.del(customer.id)).resolves.toMatchObject({ id: customer.id, object: 'customer', deleted: true });

    await expect(stripe.customers.retrieve(customer.id)).rejects.toMatchObject({ statusCode: 404, code: undefined, type: 'StripeInvalidRequestError' });
    await expect(stripe.customers.del(customer.id)).rejects.toMatchObject({ statusCode: 404 });
    expect((await stripe.subscriptions.retrieve(subscription['id'])).status).toBe('canceled');
    expect(fake.events.slice(-2).map((event) => [event.type, event.data.object['id']])).toEqual([
      ['customer.subscription.deleted', subscription['id']],
      ['customer.deleted', customer.id],
    ]);
  });

  it('refuses calls without a secret key, as the processor does', async () => {
    await expect(sdkFor(fake, 'pk_test_nope').customers.create({})).rejects.toMatchObject({ statusCode: 401 });
  });

  it('retries an open invoice as the processor does: the attempts count up, the last has no next attempt, a success pays it; and warns of an expiring card', async () => {
    const customer = await stripe.customers.create({ email: 'late@example.com' });
    const product = await stripe.products.create({ name: 'Late' });
    const price = await stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 700, recurring: { interval: 'month' } });
    const { subscription } = fake.createSubscription({ customer: customer.id, price: price.id });

    const attempts = [1, 2, 3].map(() => fake.invoiceEvent(subscription['id'], 'invoice.payment_failed').data.object);
    expect(new Set(attempts.map((invoice) => invoice['id'])).size).toBe(1);
    expect(attempts.map((invoice) => invoice['attempt_count'])).toEqual([1, 2, 3]);
    expect(attempts.map((invoice) => invoice['next_payment_attempt'] === null)).toEqual([false, false, true]);
    const paid = fake.invoiceEvent(subscription['id'], 'invoice.payment_succeeded').data.object;
    expect(paid).toMatchObject({ id: attempts[0]['id'], status: 'paid', amount_paid: 700, attempt_count: 4 });
    await expect(stripe.invoices.retrieve(paid['id'])).resolves.toMatchObject({ status: 'paid', attempt_count: 4 });
    // The next failure is of a new invoice.
    expect(fake.invoiceEvent(subscription['id'], 'invoice.payment_failed').data.object).toMatchObject({ attempt_count: 1, status: 'open' });

    const expiring = fake.cardExpiringEvent(customer.id);
    expect(expiring).toMatchObject({ type: 'customer.source.expiring', data: { object: { object: 'card', customer: customer.id, exp_year: new Date().getUTCFullYear() } } });
  });

  it('fails the next matching calls when told to, then recovers', async () => {
    fake.failNext({ method: 'POST', path: '/v1/products', status: 500, times: 1 });
    await expect(stripe.products.create({ name: 'A' })).rejects.toMatchObject({ statusCode: 500, type: 'StripeAPIError' });
    await expect(stripe.products.create({ name: 'A' })).resolves.toMatchObject({ name: 'A' });
  });

  it('replays an answer for a repeated idempotency key', async () => {
    const first = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'same-key' });
    const second = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'same-key' });
    expect(second.id).toBe(first.id);
  });

  it('creates webhook endpoints with a signing secret', async () => {
    const endpoint = await stripe.webhookEndpoints.create({ url: 'https://news.example/hook', enabled_events: ['invoice.paid'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoint.enabled_events).toEqual(['invoice.paid']);
  });

  describe('sending events', () => {
    let receiver: Server;
    let received: { body: string; signature: string | undefined }[];
    let target: string;

    beforeAll(async () => {
      received = [];
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: req.headers['stripe-signature'] as string | undefined });
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    });

    afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

    it('signs them so that the SDK’s own verification accepts them', async () => {
      const event = fake.event('customer.updated', { id: 'cus_1', object: 'customer', email: 'x@example.com' });
      const result = await fake.sendEvent(target, 'whsec_test_secret', event);
      expect(result).toEqual({ status: 200, body: { received: true } });
      const delivery = received.at(-1)!;
      const verified = Stripe.webhooks.constructEvent(delivery.body, delivery.signature!, 'whsec_test_secret', 300);
      expect(verified).toMatchObject({ id: event.id, type: 'customer.updated' });
      expect(() => Stripe.webhooks.constructEvent(delivery.body, delivery.signature!, 'whsec_other', 300)).toThrow();
    });

    it('can send a stale or a missing signature', async () => {
      const event = fake.event('customer.updated', { id: 'cus_1', object: 'customer' });
      await fake.sendEvent(target, 'whsec_test_secret', event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
      const stale = received.at(-1)!;
      expect(() => Stripe.webhooks.constructEvent(stale.body, stale.signature!, 'whsec_test_secret', 300)).toThrow(/tolerance/);
      await fake.sendEvent(target, 'whsec_test_secret', event, { signature: null });
      expect(received.at(-1)!.signature).toBeUndefined();
    });

    it('comes back from a paid checkout to the success URL with the session id, and delivers the events as late as told', async () => {
      const late = await startFakeProcessor({ deliverEvents: true, deliveryDelayMs: 1_500 });
      try {
        const processor = sdkFor(late);
        await processor.webhookEndpoints.create({ url: target, enabled_events: ['checkout.session.completed'] });
        const product = await processor.products.create({ name: 'Digital' });
        const price = await processor.prices.create({ product: product.id, currency: 'eur', unit_amount: 900, recurring: { interval: 'month' } });
        const session = await processor.checkout.sessions.create({
          mode: 'subscription',
          line_items: [{ price: price.id, quantity: 1 }],
          success_url: 'https://news.example/story?gatehouse_checkout={CHECKOUT_SESSION_ID}#comments',
          cancel_url: 'https://news.example/story',
        });
        const before = received.length;
        const paidAt = Date.now();
        const paid = await fetch(`${late.url}/checkout/${session.id}/pay`, { method: 'POST', redirect: 'manual' });
        expect(paid.status).toBe(303);
        expect(paid.headers.get('location')).toBe(`https://news.example/story?gatehouse_checkout=${session.id}#comments`);
        // Paid, as the API tells anyone who asks, while the webhook has not left yet.
        expect(await processor.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'complete', payment_status: 'paid' });
        expect(received.length).toBe(before);
        const delivered = await eventually(() => (received.length > before ? received.slice(before).map((r) => JSON.parse(r.body)) : undefined));
        expect(Date.now() - paidAt).toBeGreaterThanOrEqual(1_500);
        expect(delivered).toEqual([expect.objectContaining({ type: 'checkout.session.completed', data: { object: expect.objectContaining({ id: session.id }) } })]);

        // The delay changes at run time, over the control API too; nonsense is refused.
        const set = await fetch(`${late.url}/_fake/delivery-delay`, { method: 'PUT', body: JSON.stringify({ ms: 0 }) });
        expect(await set.json()).toEqual({ ms: 0 });
        const refused = await fetch(`${late.url}/_fake/delivery-delay`, { method: 'PUT', body: JSON.stringify({ ms: -1 }) });
        expect(refused.status).toBe(400);
      } finally {
        await late.close();
      }
    }, 20_000);
  });
});
