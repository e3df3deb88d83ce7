import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { eventually, testRedisUrl } from '@gatehouse/testing';
import IORedis from 'ioredis';
import { BillingSystem } from './support/billing';
import { call } from './support/http';
import { startGatewayOverNats } from './support/system';

jest.setTimeout(120_000);

/**
 * Writes whose bus call outlives the caller's timeout: a stalled database makes the first attempt
 * answer 503 while the service still completes it; the retry with the same Idempotency-Key gets
 * that first answer instead of `email_taken` or a second subscription.
 */
describe('Idempotency-Key on writes', () => {
  let system: BillingSystem;
  let lock: Client;

  beforeAll(async () => {
    system = await BillingSystem.start();
    await system.connectProcessor();
    lock = new Client({ connectionString: system.databaseUrl });
    await lock.connect();
  });

  afterAll(async () => {
    await lock?.end();
    await system?.close();
  });

  /** Holds writes to `table` (reads still pass) until the returned function is called. */
  async function stall(table: string): Promise<() => Promise<void>> {
    await lock.query('BEGIN');
    await lock.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
    return async () => void (await lock.query('COMMIT'));
  }

  it('gives a retried registration the first answer, also while the first attempt is still running', async () => {
    const key = randomUUID();
    const body = { email: `reader-${randomUUID()}@example.com`, password: 'reader-password', name: 'Reader' };
    const register = (headers: Record<string, string>) => system.api('/auth/customers/register', { key: system.publishableKey, body, headers });

    const release = await stall('identity.customers');
    const first = await register({ 'Idempotency-Key': key });
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: 'service_unavailable' });

    // The retry arrives while the first attempt still waits on the database, and waits for its answer.
    const retry = register({ 'Idempotency-Key': key });
    await new Promise((r) => setTimeout(r, 500));
    await release();
    const answered = await retry;
    expect(answered.status).toBe(201);
    expect(answered.headers.get('idempotent-replayed')).toBe('true');
    expect(answered.body.customer).toMatchObject({ email: body.email });

    const again = await register({ 'Idempotency-Key': key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(answered.body);

    // Without the key the same registration is a second attempt, and the email is taken.
    expect((await register({})).body).toMatchObject({ code: 'email_taken' });
    // The key with another body is refused and changes nothing.
    const reused = await system.api('/auth/customers/register', { key: system.publishableKey, body: { ...body, name: 'Someone else' }, headers: { 'Idempotency-Key': key } });
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ code: 'conflict' });

    const rows = await system.query<{ id: string }>('SELECT id FROM identity.customers WHERE email = $1', [body.email]);
    expect(rows.map((r) => r.id)).toEqual([answered.body.customer.id]);
  });

  it('gives a retried manual grant the first answer after a timeout, and grants once', async () => {
    const customer = await system.reader();
    const product = await system.product();
    const price = await system.price(product.id);
    const key = randomUUID();
    const grant = () => system.admin('/admin/subscriptions', { body: { customerId: customer.id, priceId: price.id }, headers: { 'Idempotency-Key': key } });

    const release = await stall('billing.subscriptions');
    const first = await grant();
    expect(first.status).toBe(503);
    await release();

    const retried = await grant();
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toMatchObject({ source: 'manual', status: 'active' });
    const rows = await system.query<{ id: string }>('SELECT id FROM subscriptions WHERE customer_id = $1', [customer.id]);
    expect(rows.map((r) => r.id)).toEqual([retried.body.subscriptionId]);
  });

  it('takes a body with its fields in another order for the same request, and keeps no token in clear in Redis', async () => {
    // Generous: on a loaded machine a stalled event loop would count as a slow Redis and fall back to memory.
    const redisGateway = await startGatewayOverNats(system.namespace, { REDIS_URL: testRedisUrl(), REDIS_TIMEOUT_MS: '2000' });
    const redis = new IORedis(testRedisUrl());
    const storedKeys = () => redis.keys(`${system.namespace}:idempotency:*`);
    try {
      const registerWith = (key: string, body: object) =>
        call(redisGateway.url, '/api/v1/auth/customers/register', { key: system.publishableKey, body, headers: { 'Idempotency-Key': key } });
      // Until its Redis connection is ready a new gateway keeps answers in its own memory (degraded, never down).
      await eventually(async () => {
        expect((await registerWith(randomUUID(), { email: `early-${randomUUID()}@example.com`, password: 'reader-password', name: 'Early' })).status).toBe(201);
        return (await storedKeys()).length > 0 ? true : undefined;
      });
      const key = randomUUID();
      const email = `reader-${randomUUID()}@example.com`;
      const register = (body: object) => registerWith(key, body);
      const first = await register({ email, password: 'reader-password', name: 'Reader' });
      expect(first.status).toBe(201);
      const reordered = await register({ name: 'Reader', password: 'reader-password', email });
      expect(reordered.status).toBe(201);
      expect(reordered.headers.get('idempotent-replayed')).toBe('true');
      expect(reordered.body).toEqual(first.body);

      const stored = await Promise.all((await storedKeys()).map((k) => redis.get(k)));
      expect(stored.length).toBeGreaterThan(1);
      for (const value of stored) {
        expect(value).not.toContain(first.body.refreshToken);
        expect(value).not.toContain(first.body.accessToken);
        expect(value).not.toContain(email);
      }
    } finally {
      redis.disconnect();
      await redisGateway.close();
    }
  });

  it('refuses a malformed key', async () => {
    const malformed = await system.api('/customers', { key: system.secretKey, body: { email: `c-${randomUUID()}@example.com` }, headers: { 'Idempotency-Key': 'has spaces' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'validation_failed' });
  });
});
