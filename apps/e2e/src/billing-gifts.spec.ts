import { GiftMail, ManualGrantExpiry } from '@gatehouse/billing';
import { GIFT_LINK_PARAMETER, type PaywallView } from '@gatehouse/contracts';
import { Gatehouse } from '@gatehouse/node';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { SECRET_KEY, SteerableClock } from './support/billing';
import { READER_PASSWORD } from './support/constants';
import { SmtpSink, type ReceivedMail } from './support/mail';
import { BILLING_EVENTS } from './support/test-system';
import { WholeSystem, type Reader } from './support/system-all';

const DAY_MS = 86_400_000;
/** The page with the account element the gift email's link opens (a loopback host needs no proof). */
const REDEEM_PAGE = 'http://127.0.0.1/account';

/**
 * Gift subscriptions (issue #25 item 2) across the services, through the gateway: the buyer's
 * checkout in payment mode at the fake processor, its signed events, identity's email over SMTP (a
 * real local server), the recipient's redemption and access's decision, with billing's and access's
 * clock moved through the gift's months.
 */
describe('gift subscriptions', () => {
  const clock = new SteerableClock();
  let sink: SmtpSink;
  let system: WholeSystem;
  let premium: PaywallView;
  let price: { id: string };

  beforeAll(async () => {
    sink = await SmtpSink.start();
    system = await WholeSystem.start({ clock, everyService: true, identityEnv: { SMTP_URL: sink.url }, domains: ['127.0.0.1'] });
    await system.readOutboundEvents([...BILLING_EVENTS, 'gift.purchased', 'gift.redeemed']);
    premium = await system.paywall({ name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } });
    price = await system.price((await system.product({ name: 'Everything' })).id, { currency: 'eur', unitAmount: 900, interval: 'month' });
  }, 90_000);

  afterAll(async () => {
    await system?.close();
    await sink?.close();
  });

  const giftMail = () => system.billing.app.get(GiftMail);

  /** A buyer without an account buys a gift with the publishable key. */
  function order(body: Record<string, unknown> = {}, key = system.publishableKey) {
    return system.api('/gifts', {
      key,
      body: {
        priceId: price.id,
        months: 3,
        recipientEmail: `friend-${randomUUID()}@example.com`,
        recipientName: 'Ada',
        buyerName: 'Grace',
        buyerEmail: 'grace@example.com',
        successUrl: 'https://all.example/gift/thanks',
        cancelUrl: 'https://all.example/gift',
        redeemUrl: REDEEM_PAGE,
        ...body,
      },
    });
  }

  /** A gift ordered and paid at the processor, whose signed events reached billing. */
  async function bought(body: Record<string, unknown> = {}): Promise<{ giftId: string; recipientEmail: string; paymentIntent: string }> {
    const ordered = await order(body);
    expect(ordered.status).toBe(201);
    const paid = await system.fake.completeCheckout(ordered.body.sessionId, { created: system.processorNow() });
    for (const event of paid.events) await system.deliverOk(event);
    const giftId: string = ordered.body.giftId;
    await eventually(async () => ((await gift(giftId)).status === 'purchased' ? true : undefined));
    return { giftId, recipientEmail: (await gift(giftId)).recipientEmail, paymentIntent: paid.session['payment_intent'] };
  }

  const gift = async (giftId: string) => (await system.admin(`/admin/gifts/${giftId}`)).body;

  /** The code in a gift email's link, and the link. */
  function linkIn(mail: ReceivedMail): { url: string; code: string } {
    const match = new RegExp(`(https?://\\S+#${GIFT_LINK_PARAMETER}=([A-Za-z0-9_-]+))`).exec(mail.text);
    if (!match) throw new Error(`no gift link in:\n${mail.text}`);
    return { url: match[1], code: match[2] };
  }

  const redeem = (reader: { accessToken: string }, code: string, key = system.publishableKey) => system.api('/gifts/redeem', { key, token: reader.accessToken, body: { code } });

  it('refuses a bad order with a clear problem and stores nothing', async () => {
    const before = (await system.admin('/admin/gifts')).body.items.length;
    expect((await order({ months: 2 })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'months' }] });
    expect((await order({ buyerEmail: undefined })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'buyerEmail' }] });
    expect((await order({ redeemUrl: 'https://evil.example/account' })).body).toMatchObject({ status: 403, code: 'url_not_in_publication' });
    expect((await order({ priceId: randomUUID() })).body).toMatchObject({ status: 404, code: 'not_found' });
    const refused = await order({ message: 'x'.repeat(501) });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect((await system.admin('/admin/gifts')).body.items).toHaveLength(before);
  });

  it('voids a refunded gift and one staff cancel: their codes are refused, and nothing is granted', async () => {
    const refunded = await bought();
    const { code } = linkIn(await sink.nextTo(refunded.recipientEmail));
    const refund = await system.fake.refund(refunded.paymentIntent, { created: system.processorNow() });
    await system.deliverOk(refund.event);
    expect(await eventually(async () => ((await gift(refunded.giftId)).status === 'voided' ? gift(refunded.giftId) : undefined))).toMatchObject({ voidReason: 'refunded' });

    // The processor's events out of order: the refund before the checkout's completion; the completion then changes nothing.
    const early = (await order()).body;
    const completion = (await system.fake.completeCheckout(early.sessionId, { created: system.processorNow() })).events;
    const completed = completion.find((event) => event.type === 'checkout.session.completed')!;
    await system.deliverOk((await system.fake.refund(completed.data.object['payment_intent'], { created: system.processorNow() })).event);
    for (const event of completion) await system.deliverOk(event);
    await eventually(async () => {
      const [row] = await system.querySchema<{ outcome: string | null }>('billing', 'SELECT outcome FROM processor_events WHERE event_id = $1 AND processed_at IS NOT NULL', [completed.id]);
      return row?.outcome === 'recorded: the gift is voided already' ? true : undefined;
    });
    expect(await gift(early.giftId)).toMatchObject({ status: 'voided', voidReason: 'refunded', purchasedAt: null, emailedAt: null });
    expect(system.outboundFor('gift.purchased', (d) => d.giftId === early.giftId)).toEqual([]);

    const reader = await system.reader();
    const answer = await redeem(reader, code);
    expect(answer.status).toBe(410);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 410, code: 'gift_voided', detail: expect.stringContaining('refunded') });
    expect(await system.subscriptionsOf(reader.id)).toEqual([]);

    // Staff void the second (paid: its payment is given back) from the publisher's server, with the Node client.
    const cancelled = await bought();
    const second = linkIn(await sink.nextTo(cancelled.recipientEmail)).code;
    const client = new Gatehouse({ baseUrl: system.url, secretKey: system.secretKey });
    expect((await client.gifts.list()).items.map((g) => g.id)).toContain(cancelled.giftId);
    expect(await client.gifts.void(cancelled.giftId)).toMatchObject({ id: cancelled.giftId, status: 'voided', voidReason: 'refunded' });
    expect((await system.admin(`/admin/gifts/${cancelled.giftId}/void`, { method: 'POST' })).body).toMatchObject({ status: 'voided', voidReason: 'refunded' });
    expect((await redeem(reader, second)).body).toMatchObject({ status: 410, code: 'gift_voided' });
    expect((await redeem(reader, 'madeUpCode0000000000000')).body).toMatchObject({ status: 404, code: 'not_found' });
    expect(await system.subscriptionsOf(reader.id)).toEqual([]);
    expect((await system.decisionFor(reader, '/premium/story')).granted).toBe(false);
  });

  it("refunds a paid gift's payment at the processor when staff void it (and a payment that comes after the void); a refund the processor refuses is 502 and leaves the gift as it was", async () => {
    const fakeAddress = new URL(system.fake.url);
    // The processor as its own SDK reads it: what was refunded there, not what billing says it asked.
    const processor = new Stripe(SECRET_KEY, { host: fakeAddress.hostname, port: Number(fakeAddress.port), protocol: 'http' });
    const refundsOf = async (paymentIntent: string) => (await processor.refunds.list({ payment_intent: paymentIntent })).data;
    const paid = await bought();
    const { code } = linkIn(await sink.nextTo(paid.recipientEmail));
    const before = await gift(paid.giftId);

    await system.fake.failNext({ method: 'POST', path: '/v1/refunds', status: 402 });
    const refused = await system.admin(`/admin/gifts/${paid.giftId}/void`, { method: 'POST' });
    expect(refused.status).toBe(502);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body).toMatchObject({ status: 502, code: 'processor_error', detail: expect.stringContaining('refund') });
    expect(await gift(paid.giftId)).toEqual(before);
    expect(await refundsOf(paid.paymentIntent)).toEqual([]);

    const voided = await system.admin(`/admin/gifts/${paid.giftId}/void`, { method: 'POST' });
    // Staff's void of a paid gift gives the payment back: it reads as refunded.
    expect(voided.body).toMatchObject({ id: paid.giftId, status: 'voided', voidReason: 'refunded' });
    const [refund, ...more] = await refundsOf(paid.paymentIntent);
    expect(more).toEqual([]);
    expect(refund).toMatchObject({ object: 'refund', amount: 2700, currency: 'eur', status: 'succeeded', metadata: { giftId: paid.giftId } });
    expect((await processor.charges.retrieve(refund.charge as string)).refunded).toBe(true);
    // Voiding again refunds nothing more.
    expect((await system.admin(`/admin/gifts/${paid.giftId}/void`, { method: 'POST' })).body).toMatchObject({ status: 'voided' });
    expect(await refundsOf(paid.paymentIntent)).toHaveLength(1);

    // The processor's charge.refunded for that refund finds the gift voided: it stays as staff left it.
    const charged = (await system.fake.events()).find((event) => event.type === 'charge.refunded' && event.data.object['payment_intent'] === paid.paymentIntent)!;
    await system.deliverOk(charged);
    await eventually(async () => {
      const [row] = await system.querySchema<{ outcome: string | null }>('billing', 'SELECT outcome FROM processor_events WHERE event_id = $1 AND processed_at IS NOT NULL', [charged.id]);
      return row?.outcome === 'ignored: the gift is voided' ? true : undefined;
    });
    expect(await gift(paid.giftId)).toMatchObject({ status: 'voided', voidReason: 'refunded' });
    const reader = await system.reader();
    expect((await redeem(reader, code)).body).toMatchObject({ status: 410, code: 'gift_voided' });

    // Cancelled by staff before its buyer paid: the payment that still comes is given back, and buys nothing.
    const late = (await order()).body;
    expect((await system.admin(`/admin/gifts/${late.giftId}/void`, { method: 'POST' })).body).toMatchObject({ status: 'voided', voidReason: 'cancelled' });
    const paidLate = await system.fake.completeCheckout(late.sessionId, { created: system.processorNow() });
    for (const event of paidLate.events) await system.deliverOk(event);
    const [lateRefund] = await eventually(async () => {
      const refunds = await refundsOf(paidLate.session['payment_intent']);
      return refunds.length > 0 ? refunds : undefined;
    });
    expect(lateRefund).toMatchObject({ amount: 2700, status: 'succeeded', metadata: { giftId: late.giftId } });
    // Billing asks for that refund inside the payment event's transaction: the gift reads refunded once it commits.
    const lateGift = await eventually(async () => {
      const current = await gift(late.giftId);
      return current.voidReason === 'refunded' ? current : undefined;
    });
    expect(lateGift).toMatchObject({ status: 'voided', voidReason: 'refunded', purchasedAt: null, emailedAt: null });
    expect(system.outboundFor('gift.purchased', (d) => d.giftId === late.giftId)).toEqual([]);
  });

  it('takes a signed-in buyer as the customer who pays, without asking their address again', async () => {
    const buyer = await system.reader();
    const ordered = await system.api('/gifts', {
      key: system.publishableKey,
      token: buyer.accessToken,
      body: { priceId: price.id, months: 12, recipientEmail: `friend-${randomUUID()}@example.com`, recipientName: 'Ada', buyerName: 'Grace', successUrl: 'https://all.example/ok', cancelUrl: 'https://all.example/no' },
    });
    expect(ordered.status).toBe(201);
    expect(ordered.body).toMatchObject({ amount: 10800, currency: 'eur' });
    const session = await system.fake.object('checkout.session', ordered.body.sessionId);
    expect((await system.fake.object('customer', session['customer']))).toMatchObject({ email: buyer.email, metadata: { customerId: buyer.id } });
    expect(await gift(ordered.body.giftId)).toMatchObject({ status: 'pending', buyerCustomerId: buyer.id, buyerEmail: buyer.email, months: 12 });

    // The buyer's data on request: the gift is theirs to download, and their erasure takes them out of it.
    const exported = await system.api('/auth/customers/me/export', { key: system.publishableKey, token: buyer.accessToken });
    expect(exported.body.gifts).toEqual([expect.objectContaining({ giftId: ordered.body.giftId, role: 'buyer', buyerEmail: buyer.email, recipientName: 'Ada', months: 12 })]);
    expect(JSON.stringify(exported.body.gifts)).not.toMatch(/code/i);
    expect((await system.api('/auth/customers/me', { key: system.publishableKey, token: buyer.accessToken, method: 'DELETE', body: { password: READER_PASSWORD } })).status).toBe(204);
    expect(await eventually(async () => ((await gift(ordered.body.giftId)).buyerEmail === '' ? gift(ordered.body.giftId) : undefined))).toMatchObject({ buyerCustomerId: null, months: 12 });
  });

  it('keeps a gift to its publication: a second publication cannot redeem it, see it or void it', async () => {
    const { giftId, recipientEmail } = await bought();
    const { code } = linkIn(await sink.nextTo(recipientEmail));
    const { session } = await system.otherPublicationSession();
    const other = (await system.api('/admin/api-keys', { session, body: { name: 'other-site' } })).body;
    const registered = await system.api('/auth/customers/register', { key: other.publishableKey, body: { email: `other-${randomUUID()}@example.com`, password: READER_PASSWORD, name: 'Other' } });
    expect(registered.status).toBe(201);

    expect((await redeem(registered.body, code, other.publishableKey)).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.api('/admin/gifts', { session })).body.items).toEqual([]);
    expect((await system.api(`/admin/gifts/${giftId}`, { session })).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.api(`/admin/gifts/${giftId}/void`, { method: 'POST', session })).body).toMatchObject({ status: 404, code: 'not_found' });
    expect(await gift(giftId)).toMatchObject({ status: 'purchased', redeemedBy: null });
  });

  it('is bought, emailed on its date and not before, redeemed for a subscription with source gift and a fixed end, reminded and ended without renewal (runs last: it moves the clock months on)', async () => {
    const sendAt = new Date(clock.now().getTime() + 2 * DAY_MS);
    const { giftId, recipientEmail } = await bought({ sendAt: sendAt.toISOString(), buyerName: 'Grace <script>', message: 'Happy <b>birthday</b>!' });

    // The processor was asked for one payment of three months of the price, an inline one-time price of its product.
    const [checkout] = (await system.fake.requestsTo('POST', '/v1/checkout/sessions')).filter((r) => r.body['metadata']?.giftId === giftId);
    expect(checkout.body).toMatchObject({ mode: 'payment', line_items: [{ price_data: { currency: 'eur', unit_amount: '2700' }, quantity: '1' }], payment_intent_data: { metadata: { giftId } } });
    expect(await gift(giftId)).toMatchObject({ status: 'purchased', amount: 2700, currency: 'eur', months: 3, productName: 'Everything', emailedAt: null });
    const purchased = await eventually(() => system.outboundFor('gift.purchased', (d) => d.giftId === giftId)[0]);
    expect(purchased.data).toEqual({ giftId, priceId: price.id, productId: expect.any(String), months: 3, amount: 2700, currency: 'eur', buyerCustomerId: null, sendAt: sendAt.toISOString() });

    // Not before its date.
    await giftMail().sweep();
    clock.advance(DAY_MS);
    await giftMail().sweep();
    expect((await gift(giftId)).emailedAt).toBeNull();
    expect(sink.to(recipientEmail)).toEqual([]);
    clock.advance(DAY_MS + 60_000);
    expect(await giftMail().sweep()).toBeGreaterThanOrEqual(1);
    const mail = await sink.nextTo(recipientEmail);
    expect(mail.subject).toBe('Grace <script> gave you 3 months of Everything');
    expect(mail.text).toContain('Happy <b>birthday</b>!');
    expect(mail.html).toContain('Happy &lt;b&gt;birthday&lt;/b&gt;!');
    expect(mail.html).not.toContain('<script>');
    const { url, code } = linkIn(mail);
    expect(url).toBe(`${REDEEM_PAGE}#${GIFT_LINK_PARAMETER}=${code}`);
    expect((await gift(giftId)).emailedAt).not.toBeNull();
    await giftMail().sweep();
    expect(sink.to(recipientEmail)).toHaveLength(1);

    // The recipient signs up and redeems: a subscriber until the gift's end, which does not renew.
    const recipient: Reader = await system.reader();
    expect((await system.decisionFor(recipient, '/premium/story')).granted).toBe(false);
    const redeemed = await redeem(recipient, code);
    expect(redeemed.status).toBe(200);
    const subscription = redeemed.body.subscription;
    const expectedEnd = new Date(clock.now());
    expectedEnd.setUTCMonth(expectedEnd.getUTCMonth() + 3);
    expect(redeemed.body).toMatchObject({ giftId, productName: 'Everything', months: 3 });
    expect(subscription).toMatchObject({ customerId: recipient.id, priceId: price.id, status: 'active', source: 'gift', cancelAtPeriodEnd: true });
    expect(Math.abs(new Date(subscription.currentPeriodEnd).getTime() - expectedEnd.getTime())).toBeLessThan(3 * DAY_MS);
    expect((await redeem(recipient, code)).body.subscription.subscriptionId).toBe(subscription.subscriptionId);
    expect((await redeem(await system.reader(), code)).body).toMatchObject({ status: 409, code: 'gift_redeemed' });
    expect(await gift(giftId)).toMatchObject({ status: 'redeemed', redeemedBy: recipient.id, subscriptionId: subscription.subscriptionId });
    await eventually(async () => ((await system.decisionFor(recipient, '/premium/story')).reason === 'subscriber' ? true : undefined));
    expect(await system.decisionFor(recipient, '/premium/story')).toEqual({ granted: true, reason: 'subscriber', customerId: recipient.id });
    expect((await eventually(() => system.outboundFor('gift.redeemed', (d) => d.giftId === giftId)[0])).data).toEqual({
      giftId,
      customerId: recipient.id,
      subscriptionId: subscription.subscriptionId,
      priceId: price.id,
      months: 3,
      endsAt: subscription.currentPeriodEnd,
    });
    await eventually(() => system.outboundFor('subscription.created', (d) => d.subscriptionId === subscription.subscriptionId && d.source === 'gift')[0]);

    // A week before the end, the reader is reminded once, with a way to keep reading.
    const reminders = () => sink.to(recipient.email).filter((m) => m.subject.startsWith('Your Everything gift ends on'));
    const end = new Date(subscription.currentPeriodEnd).getTime();
    clock.advance(end - 8 * DAY_MS - clock.now().getTime());
    await giftMail().sweep();
    expect(reminders()).toEqual([]);
    clock.advance(2 * DAY_MS);
    await giftMail().sweep();
    const reminder = await eventually(() => reminders()[0]);
    expect(reminder.subject).toMatch(/^Your Everything gift ends on \d{1,2} \w+ \d{4}$/);
    expect(reminder.text).toContain(`Keep reading: ${REDEEM_PAGE}`);
    await giftMail().sweep();
    expect(reminders()).toHaveLength(1);

    // At its end it stops, as a manual grant does: cancelled, never renewed at the processor, and the paywall is back.
    clock.advance(end + 60_000 - clock.now().getTime());
    expect(await system.billing.app.get(ManualGrantExpiry).sweep()).toBeGreaterThanOrEqual(1);
    expect((await system.subscriptionsOf(recipient.id))[0]).toMatchObject({ subscriptionId: subscription.subscriptionId, source: 'gift', status: 'cancelled' });
    // Its end was known from the start (cancelAtPeriodEnd), so it is announced as a scheduled cancellation taking effect.
    await eventually(() => system.outboundFor('subscription.updated', (d) => d.subscriptionId === subscription.subscriptionId && d.status === 'cancelled')[0]);
    expect(await system.fake.requestsTo('POST', '/v1/subscriptions*')).toEqual([]);
    await eventually(async () => ((await system.decisionFor(recipient, '/premium/story')).granted === false ? true : undefined));
    expect(await system.decisionFor(recipient, '/premium/story')).toMatchObject({ granted: false, reason: 'blocked', paywallRule: { paywallId: premium.id } });

    const stats = await system.admin(`/admin/stats?from=${new Date(Date.now() - DAY_MS).toISOString()}&to=${new Date(clock.now().getTime() + DAY_MS).toISOString()}&interval=day`);
    expect(stats.body.gifts).toMatchObject({ redeemed: 1 });
    expect(stats.body.gifts.purchased).toBeGreaterThanOrEqual(4);
  }, 120_000);
});
