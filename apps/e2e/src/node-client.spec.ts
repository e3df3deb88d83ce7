import { Events, Gatehouse, GatehouseApiError, GatehouseConnectionError, isEvent, verifyWebhook, WebhookVerificationError } from '@gatehouse/node';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { call } from './support/http';
import { SITE, WholeSystem } from './support/system-all';
import { WebhookReceiver } from './support/webhooks';

/** `@gatehouse/node` against the running system: every method, retries, timeouts and webhook verification. */
describe('@gatehouse/node', () => {
  let system: WholeSystem;
  let receiver: WebhookReceiver;
  let client: Gatehouse;
  let priceId: string;
  let productId: string;

  beforeAll(async () => {
    [system, receiver] = await Promise.all([WholeSystem.start({ everyService: true }), WebhookReceiver.start()]);
    client = new Gatehouse({ baseUrl: system.url, secretKey: system.secretKey, publishableKey: system.publishableKey });
    const product = await system.product({ name: 'Digital' });
    productId = product.id;
    priceId = (await system.price(product.id, { currency: 'eur', unitAmount: 900, interval: 'month' })).id;
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await system?.close();
  });

  const newEmail = () => `node-${randomUUID()}@example.com`;

  it('registers, logs in, refreshes, names and logs out a customer', async () => {
    const email = newEmail();
    const registered = await client.auth.register({ email, password: 'reader-password', name: 'Node Reader' });
    expect(registered.customer).toMatchObject({ email, name: 'Node Reader' });
    const login = await client.auth.login({ email, password: 'reader-password' });
    const refreshed = await client.auth.refresh(login.refreshToken);
    expect(refreshed.refreshToken).not.toBe(login.refreshToken);
    expect(await client.auth.me(refreshed.accessToken)).toMatchObject({ id: registered.customer.id, email });
    await client.auth.logout(refreshed.refreshToken);
    await expect(client.auth.refresh(refreshed.refreshToken)).rejects.toMatchObject({ status: 401, code: 'refresh_token_invalid' });
  });

  it('keeps organisations: create, read, change, invite, withdraw and delete', async () => {
    const organisation = await client.organisations.create({ name: 'Node University', productId, seats: 5, ipRanges: ['81.2.90.0/24'], domains: ['node-university.example'] });
    expect(organisation).toMatchObject({ name: 'Node University', productId, seats: 5, seatsUsed: 0, ipRanges: ['81.2.90.0/24'] });
    expect((await client.organisations.list()).items.map((o) => o.id)).toContain(organisation.id);
    expect(await client.organisations.update(organisation.id, { seats: 10 })).toMatchObject({ id: organisation.id, seats: 10 });
    const invitation = await client.organisations.invite(organisation.id, 'Member@Example.com');
    expect(invitation).toMatchObject({ email: 'member@example.com', expiresAt: expect.any(String) });
    expect((await client.organisations.seats(organisation.id)).invitations.map((i) => i.id)).toEqual([invitation.id]);
    await client.organisations.cancelInvitation(organisation.id, invitation.id);
    expect(await client.organisations.seats(organisation.id)).toMatchObject({ members: [], invitations: [] });
    expect(await client.organisations.stats(organisation.id, { from: '2031-01-01T12:00:00.000Z', to: '2031-02-01T00:00:00.000Z' })).toMatchObject({
      organisationId: organisation.id,
      from: '2031-01-01T00:00:00.000Z',
      seats: 10,
      readers: { members: 0, granted: 0 },
      reads: { total: 0 },
    });
    await expect(client.organisations.create({ name: 'Overlap', productId, ipRanges: ['81.2.90.128/25'] })).rejects.toMatchObject({ status: 400, code: 'validation_failed' });
    await client.organisations.delete(organisation.id);
    await expect(client.organisations.get(organisation.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('carries the problem details and the request id of a refusal', async () => {
    const email = newEmail();
    await client.auth.register({ email, password: 'reader-password', name: 'Twice' });
    const refusal = await client.auth.register({ email, password: 'reader-password', name: 'Twice' }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(GatehouseApiError);
    expect(refusal).toMatchObject({ status: 409, code: 'email_taken', problem: { type: expect.any(String), title: expect.any(String), detail: expect.any(String) } });
    expect((refusal as GatehouseApiError).requestId).toMatch(/.+/);
    const invalid = await client.customers.create({ email: 'not-an-email', name: '' }).catch((e: GatehouseApiError) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((invalid as GatehouseApiError).errors.map((e) => e.field)).toEqual(expect.arrayContaining(['email', 'name']));
  });

  it('creates, finds, changes and deletes customer records', async () => {
    const email = newEmail();
    const created = await client.customers.create({ email, name: 'Record' });
    expect(created).toMatchObject({ email, name: 'Record', hasPassword: false });
    expect((await client.customers.list({ email })).items.map((c) => c.id)).toEqual([created.id]);
    expect(await client.customers.update(created.id, { name: 'Renamed', password: 'a-new-password' })).toMatchObject({ name: 'Renamed', hasPassword: true });
    await client.customers.delete(created.id);
    expect((await client.customers.list({ email })).items).toEqual([]);
    await expect(client.customers.delete(created.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it("reads and exports the audit log of the staff's writes", async () => {
    // The product's creation, and its price's (whose path names the product).
    const { items } = await client.auditLog.list({ resource: productId });
    expect(items.map((e) => e.action)).toEqual(['AdminProductsController_createPrice', 'AdminProductsController_create']);
    expect(items[1]).toMatchObject({ method: 'POST', resourceId: productId, changes: { name: 'Digital' } });
    const csv = await client.auditLog.export({ resource: productId });
    expect(csv.split('\r\n')).toEqual([expect.stringMatching(/^at,actor_email,/), expect.stringContaining(',AdminProductsController_createPrice,'), expect.stringContaining(`,${productId},`), '']);
    await expect(client.auditLog.list({ from: 'soon' })).rejects.toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('checks out, lists, opens the portal, changes plans, pauses, resumes and cancels subscriptions', async () => {
    const customer = await client.auth.register({ email: newEmail(), password: 'reader-password', name: 'Subscriber' });
    const reader = { id: customer.customer.id, accessToken: customer.accessToken };
    const checkout = await client.subscriptions.checkout({ customerId: reader.id, priceId, successUrl: `${SITE}/ok`, cancelUrl: `${SITE}/no` });
    expect(checkout).toEqual({ url: expect.stringContaining(checkout.sessionId), sessionId: expect.stringMatching(/^cs_/) });
    const { events } = await system.fake.completeCheckout(checkout.sessionId, { created: system.processorNow() });
    // Back on the success page before the processor's webhook: confirmed, and recorded once.
    const confirmed = await client.subscriptions.confirmCheckout({ customerId: reader.id, sessionId: checkout.sessionId });
    expect(confirmed).toMatchObject({ sessionId: checkout.sessionId, status: 'complete', subscription: { customerId: reader.id, priceId, status: 'active' } });
    for (const event of events) await system.deliverOk(event);
    const [subscription] = await client.subscriptions.list(reader.id);
    expect(subscription).toEqual(confirmed.subscription);
    expect(subscription).toMatchObject({ customerId: reader.id, priceId, status: 'active', cancelAtPeriodEnd: false });
    // A subscription is no purchase: the reader has bought no pass or single article.
    expect(await client.subscriptions.purchases(reader.id)).toEqual([]);
    expect((await client.subscriptions.portal({ customerId: reader.id, returnUrl: `${SITE}/account` })).url).toMatch(/^http/);
    const { subscriptionId } = subscription;
    const yearly = (await system.price(productId, { currency: 'eur', unitAmount: 9000, interval: 'year' })).id;
    expect(await client.subscriptions.previewPlanChange({ subscriptionId, priceId: yearly })).toMatchObject({ direction: 'downgrade', when: 'period_end', amountDue: 0 });
    expect((await client.subscriptions.changePlan({ subscriptionId, priceId: yearly, when: 'now' })).subscription).toMatchObject({ priceId: yearly, scheduledChange: null });
    expect((await system.admin('/admin/webhooks', { body: { url: `${receiver.url}/pause-hook`, events: ['subscription.paused', 'subscription.resumed'] } })).status).toBe(201);
    expect(await client.subscriptions.pause(subscriptionId, 3)).toMatchObject({ pausedUntil: expect.any(String) });
    expect(await client.subscriptions.resume(subscriptionId)).toMatchObject({ pausedUntil: null });
    const delivered = await eventually(async () => {
      const mine = receiver.at('/pause-hook').map((request) => JSON.parse(request.body)).filter((body) => body.data.subscriptionId === subscriptionId);
      return mine.length >= 2 ? mine : undefined;
    });
    expect(delivered.map((body) => [body.event, body.data.pausedUntil === null]).sort()).toEqual([
      ['subscription.paused', false],
      ['subscription.resumed', true],
    ]);
    expect(await client.subscriptions.cancel(subscription.subscriptionId)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(await client.subscriptions.cancel(subscription.subscriptionId, { atPeriodEnd: false })).toMatchObject({ status: 'cancelled' });
    await expect(client.subscriptions.list(randomUUID())).rejects.toMatchObject({ status: 404, code: 'not_found' });
  }, 60_000);

  it('asks for access decisions with the publishable key, as a reader or a visitor', async () => {
    await system.paywall({ name: 'Hard', type: 'hard', match: { include: ['/node-premium/**'] } });
    const visitor = await client.access.check({ url: `${SITE}/node-premium/story`, userId: 'visitor-node' });
    expect(visitor).toMatchObject({ granted: false, reason: 'blocked', paywallRule: { type: 'hard' } });
    expect(await client.access.check({ url: `${SITE}/free` })).toMatchObject({ granted: true, reason: 'no_rule' });
    const secretOnly = new Gatehouse({ baseUrl: system.url, secretKey: system.secretKey });
    expect(() => secretOnly.access.check({ url: `${SITE}/free` })).toThrow(/publishableKey/);
    const wrongKind = new Gatehouse({ baseUrl: system.url, publishableKey: system.secretKey });
    await expect(wrongKind.access.check({ url: `${SITE}/free` })).rejects.toMatchObject({ status: 403, code: 'api_key_wrong_kind' });
  });

  it('waits as Retry-After says when rate limited, then succeeds', async () => {
    const keys = await system.admin('/admin/api-keys', { body: { name: `limited-${randomUUID().slice(0, 8)}` } });
    const seen: Array<{ status: number; retryAfter: string | null; at: number }> = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      seen.push({ status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now() });
      return response;
    };
    const limited = new Gatehouse({ baseUrl: system.url, secretKey: keys.body.secretKey, fetch: recording, maxRetryDelayMs: 61_000 });
    // Use up the key's 200 requests of this minute.
    for (let used = 0; used < 200; ) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => call(system.url, '/api/v1/customers?limit=1', { key: keys.body.secretKey })));
      used += batch.length;
      if (batch.some((answer) => answer.status === 429)) break;
    }
    const page = await limited.customers.list({ limit: 1 });
    expect(page.items).toBeDefined();
    expect(seen[0]).toMatchObject({ status: 429, retryAfter: expect.stringMatching(/^\d+$/) });
    expect(seen.at(-1)!.status).toBe(200);
    expect(seen.at(-1)!.at - seen[0].at).toBeGreaterThanOrEqual((Number(seen[0].retryAfter) - 1) * 1000);
  }, 120_000);

  it('gives up with a connection error when the server does not answer in time', async () => {
    receiver.answer('/api/v1/customers', () => 'no answer');
    const slow = new Gatehouse({ baseUrl: receiver.url, secretKey: 'sk_test', timeoutMs: 300, maxRetries: 1, retryBaseDelayMs: 10 });
    await expect(slow.customers.list()).rejects.toThrow(GatehouseConnectionError);
    expect(receiver.at('/api/v1/customers')).toHaveLength(2);
  });

  it('repeats a read after a 5xx, and not a plain write', async () => {
    receiver.answer('/api/v1/customers', (_, nth) => (nth === 1 ? { status: 503, body: '{"code":"service_unavailable","status":503}' } : { status: 200, body: '{"items":[],"nextCursor":null}' }));
    const flaky = new Gatehouse({ baseUrl: receiver.url, secretKey: 'sk_test', retryBaseDelayMs: 10 });
    expect(await flaky.customers.list()).toEqual({ items: [], nextCursor: null });
    receiver.answer('/api/v1/auth/customers/register', () => ({ status: 503, body: '{"code":"service_unavailable","status":503}' }));
    await expect(flaky.auth.register({ email: 'a@example.com', password: 'reader-password', name: 'A' })).rejects.toMatchObject({ status: 503 });
    expect(receiver.at('/api/v1/auth/customers/register')).toHaveLength(1);
  });

  it('verifies a real webhook delivery, and refuses a tampered or stale one', async () => {
    const created = await system.admin('/admin/webhooks', { body: { url: `${receiver.url}/node-hook`, events: ['customer.created'] } });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    const email = newEmail();
    await client.customers.create({ email, name: 'Hooked' });
    const delivery = await eventually(async () => receiver.at('/node-hook').find((request) => request.body.includes(email)));

    const event = verifyWebhook({ body: delivery.body, headers: delivery.headers as Record<string, string>, secret });
    expect(event).toMatchObject({ event: 'customer.created', deliveryId: delivery.headers['webhook-id'] });
    expect(isEvent(event, Events.CustomerCreated) && event.data.email).toBe(email);

    const tampered = delivery.body.replace(email, `x${email}`);
    expect(() => verifyWebhook({ body: tampered, headers: delivery.headers as Record<string, string>, secret })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook({ body: delivery.body, headers: delivery.headers as Record<string, string>, secret: `${secret.slice(0, -4)}AAA=` })).toThrow(
      WebhookVerificationError,
    );
    const later = new Date(delivery.at + 10 * 60_000);
    expect(() => verifyWebhook({ body: delivery.body, headers: delivery.headers as Record<string, string>, secret, now: later })).toThrow(/tolerance/);
    expect(verifyWebhook({ body: delivery.body, headers: delivery.headers as Record<string, string>, secret, now: later, toleranceSeconds: 900 }).event).toBe('customer.created');
  }, 60_000);
});
