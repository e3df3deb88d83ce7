import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import type { Call } from './support/http';
import { codeIn, SmtpSink } from './support/mail';
import { TestSystem } from './support/test-system';
import { WebhookReceiver } from './support/webhooks';

const SITE = 'https://privacy.example';
const SCHEMAS = ['identity', 'admin', 'access', 'billing', 'webhooks_out', 'branding'];

/** Every service with reader data, the fake processor, and an SMTP server as the mail provider. */
function startPersonalDataSystem(smtpUrl: string): Promise<TestSystem> {
  return TestSystem.boot({
    name: 'gdpr',
    services: ['identity', 'admin', 'access', 'billing', 'webhooks-out', 'branding'],
    publication: { name: 'Privacy Post', domains: ['privacy.example', 'billing.example'] },
    env: { identity: { BCRYPT_COST: '4', SMTP_URL: smtpUrl }, access: { ENTITLEMENTS_TIMEOUT_MS: '500' } },
    processor: true,
    connectProcessor: true,
    keys: 'privacy-site',
  });
}

/**
 * Where any of the needles still shows: every text, JSON, UUID and array column of every table
 * of every service's schema, as `schema.table.column`.
 */
async function tracesOf(system: TestSystem, needles: string[]): Promise<string[]> {
  const columns = await system.querySchema<{ table_schema: string; table_name: string; column_name: string }>(
    'public',
    `SELECT c.table_schema, c.table_name, c.column_name FROM information_schema.columns AS c
     JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
     WHERE c.table_schema = ANY($1) AND c.data_type IN ('text', 'character varying', 'jsonb', 'json', 'uuid', 'ARRAY')`,
    [SCHEMAS],
  );
  expect(columns.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const { table_schema: schema, table_name: table, column_name: column } of columns) {
    const [{ hits }] = await system.querySchema<{ hits: number }>(
      schema,
      `SELECT count(*)::int AS hits FROM "${schema}"."${table}" WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS needle WHERE strpos(lower("${column}"::text), lower(needle)) > 0)`,
      [needles],
    );
    if (hits > 0) found.push(`${schema}.${table}.${column}`);
  }
  return found;
}

describe('a reader’s data on request: export and erasure in every service (GDPR art. 15, 17, 20)', () => {
  let sink: SmtpSink;
  let receiver: WebhookReceiver;
  let system: TestSystem;
  let paywalls: { metered: string; newsletter: string; data: string };
  let priceId: string;

  beforeAll(async () => {
    [sink, receiver] = await Promise.all([SmtpSink.start(), WebhookReceiver.start()]);
    system = await startPersonalDataSystem(sink.url);
    await system.admin('/admin/webhooks', { body: { url: `${receiver.url}/hook`, events: ['customer.created', 'customer.deleted', 'newsletter.subscribe', 'subscription.created'] } });
    const paywall = async (body: Record<string, unknown>) => (await system.admin('/admin/paywalls', { body })).body.id as string;
    paywalls = {
      metered: await paywall({ name: 'Meter', type: 'metered', config: { limit: 3, period: 'month' }, match: { include: ['/metered/**'] } }),
      newsletter: await paywall({ name: 'Letters', type: 'newsletter', match: { include: ['/letters/**'] } }),
      data: await paywall({
        name: 'About you',
        type: 'data',
        config: { fields: [{ name: 'company', label: 'Company', type: 'text', required: true }] },
        match: { include: ['/about/**'] },
      }),
    };
    priceId = (await system.price((await system.product()).id)).id;
  }, 120_000);

  afterAll(async () => {
    await system?.close();
    await receiver?.close();
    await sink?.close();
  });

  /** A reader who used every feature: signed up, verified by code, read metered articles, signed up for the newsletter, filled a data wall, paid at the processor. */
  async function activeReader() {
    const email = `reader-${randomUUID()}@example.com`;
    const visitorId = `visitor-${randomUUID()}`;
    const key = system.publishableKey;
    const registered = await system.api('/auth/customers/register', { key, body: { email, password: 'reader-password', name: 'Rea Der' } });
    expect(registered.status).toBe(201);
    const customer = registered.body.customer as { id: string };
    await sink.nextTo(email);
    expect((await system.api('/auth/customers/login-code', { key, body: { email } })).status).toBe(202);
    const code = codeIn((await sink.nextTo(email, 2)).subject);
    const signedIn = await system.api('/auth/customers/login-code/verify', { key, body: { email, code } });
    expect(signedIn.status).toBe(200);
    const token = signedIn.body.accessToken as string;
    const asReader: Call = { key, token };
    for (const page of ['/metered/one', '/metered/two']) {
      const check = await system.api(`/access/check?url=${encodeURIComponent(SITE + page)}&userId=${visitorId}`, asReader);
      expect(check.body).toMatchObject({ granted: true, reason: 'meter_allowance' });
    }
    const tracked = await system.api('/events', {
      ...asReader,
      body: {
        events: [
          { type: 'newsletter_subscribe', url: `${SITE}/letters/a`, userId: visitorId, paywallId: paywalls.newsletter, data: { email } },
          { type: 'data_submit', url: `${SITE}/about/a`, userId: visitorId, paywallId: paywalls.data, data: { company: 'Acme Reading Ltd' } },
        ],
      },
    });
    expect(tracked.status).toBe(202);
    const { processorId: processorSubscriptionId } = await system.subscribe({ id: customer.id }, priceId);
    return { email, visitorId, customerId: customer.id, token, asReader, processorSubscriptionId };
  }

  it('exports everything held about a reader, and erases it in every service through restarts of billing and identity, once', async () => {
    const reader = await activeReader();
    const { customerId, email, asReader } = reader;

    // Visits reach the table within a second of the check, and billing handles the processor's events from its queue.
    const exported = await eventually(async () => {
      const answer = await system.api('/auth/customers/me/export', asReader);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        format: 'gatehouse.personal-data.v1',
        publicationId: system.publicationId,
        customer: { id: customerId, email, name: 'Rea Der', emailVerified: true, emailVerifiedAt: expect.any(String) },
        processorCustomer: { processorCustomerId: expect.stringMatching(/^cus_/), email },
        subscriptions: [expect.objectContaining({ customerId, priceId, status: 'active' })],
        checkoutSessions: [expect.objectContaining({ priceId, completedAt: expect.any(String) })],
        visitorIds: [expect.objectContaining({ visitorId: reader.visitorId })],
        visits: [expect.objectContaining({ readerKey: `c:${customerId}`, count: 2 })],
        newsletterSignups: [expect.objectContaining({ kind: 'newsletter' })],
        dataWallSubmissions: [expect.objectContaining({ kind: 'data', fields: ['company'] })],
      });
      expect(answer.body.webhookDeliveries.map((delivery: { event: string }) => delivery.event)).toEqual(
        expect.arrayContaining(['customer.created', 'newsletter.subscribe', 'subscription.created']),
      );
      return answer.body;
    });
    expect(exported.sessions).toHaveLength(2);
    expect(exported.meterViews.map((view: { page: string }) => view.page).sort()).toEqual(['privacy.example/metered/one', 'privacy.example/metered/two']);
    expect(exported.emailLog.map((mail: { kind: string; toAddress: string }) => [mail.kind, mail.toAddress])).toEqual([
      ['email_verification', email],
      ['login_code', email],
    ]);
    expect(exported.processorEvents.map((event: { type: string }) => event.type)).toEqual(expect.arrayContaining(['checkout.session.completed', 'customer.subscription.created']));
    const eventNames = exported.events.map((event: { name: string }) => event.name);
    expect(eventNames).toEqual(expect.arrayContaining(['customer.created', 'customer.verified', 'newsletter.subscribe', 'data.submit', 'subscription.created']));

    // Staff see the same document; another publication's staff do not see it at all.
    const byStaff = await system.admin(`/customers/${customerId}/export`);
    expect(byStaff.status).toBe(200);
    const { customer, sessions, emailLog, subscriptions, checkoutSessions, processorCustomer, meterViews, visitorIds, newsletterSignups, dataWallSubmissions } = exported;
    expect(byStaff.body).toMatchObject({ customer, sessions, emailLog, subscriptions, checkoutSessions, processorCustomer, meterViews, visitorIds, newsletterSignups, dataWallSubmissions });
    const other = await system.otherPublicationSession();
    expect((await system.api(`/customers/${customerId}/export`, { session: other.session })).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.api(`/customers/${customerId}`, { session: other.session, method: 'DELETE' })).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.api(`/customers/${customerId}/export`, { key: system.publishableKey })).body).toMatchObject({ status: 403, code: 'api_key_wrong_kind' });

    // The reader's own erasure refuses without a token, a password or with a wrong one, and changes nothing.
    const refusals: Array<[Call, number, string]> = [
      [{ key: system.publishableKey, body: { password: 'reader-password' } }, 401, 'token_invalid'],
      [{ ...asReader, body: {} }, 400, 'validation_failed'],
      [{ ...asReader, body: { password: 'reader-password', code: '123456' } }, 400, 'validation_failed'],
      [{ ...asReader, body: { password: 'wrong-password' } }, 401, 'invalid_credentials'],
      [{ ...asReader, body: { code: '000000' } }, 401, 'code_invalid'],
    ];
    for (const [options, status, code] of refusals) {
      const refused = await system.api('/auth/customers/me', { ...options, method: 'DELETE' });
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ status, ...(code === 'token_invalid' ? {} : { code }) });
    }
    expect((await system.api('/auth/customers/me', asReader)).status).toBe(200);
    expect((await system.api('/auth/customers/login', { key: system.publishableKey, body: { email, password: 'reader-password' } })).status).toBe(200);

    // The search finds the reader wherever the services hold them, before the erasure.
    expect(await tracesOf(system, [customerId, email, reader.visitorId])).toEqual(
      expect.arrayContaining(['identity.customers.email', 'access.visitor_links.visitor_id', 'billing.processor_customers.email', 'billing.processor_events.payload', 'webhooks_out.deliveries.body']),
    );

    // Billing is down when the reader asks: the erasure waits for it, and finishes once it is back.
    const billing = system.billing;
    await system.stopReplica(billing);
    expect((await system.api('/auth/customers/me', { ...asReader, method: 'DELETE', body: { password: 'reader-password' } })).status).toBe(204);
    expect((await system.api('/auth/customers/me', asReader)).body).toMatchObject({ status: 401, code: 'token_invalid' });
    expect((await system.api('/auth/customers/login', { key: system.publishableKey, body: { email, password: 'reader-password' } })).status).toBe(401);
    const stuck = await eventually(async () => {
      const [row] = await system.querySchema<{ steps_done: string[]; last_error: string | null }>('identity', 'SELECT steps_done, last_error FROM erasures WHERE customer_id = $1', [
        customerId,
      ]);
      return row?.last_error?.startsWith('billing:') ? row : undefined;
    }, 20_000);
    expect(stuck.steps_done).toEqual(['access']);
    // Identity restarts too, meanwhile: the new instance takes the erasure up from its table.
    await system.stopReplica(system.replicasOf('identity')[0]);
    await system.startReplica('billing');
    await system.startReplica('identity');
    await eventually(async () => {
      const rows = await system.querySchema('identity', 'SELECT 1 FROM erasures WHERE customer_id = $1', [customerId]);
      return rows.length === 0 ? true : undefined;
    }, 30_000);

    const deleted = receiver.at('/hook').filter((request) => request.headers['x-service-event'] === 'customer.deleted');
    expect(deleted.map((request) => JSON.parse(request.body).data)).toEqual([expect.objectContaining({ customerId, email })]);
    const processorCustomerId = exported.processorCustomer.processorCustomerId as string;
    expect(await system.fake.requestsTo('DELETE', `/v1/customers/${processorCustomerId}`)).not.toHaveLength(0);
    await expect(system.fake.object('customer', processorCustomerId)).rejects.toThrow();
    // What the processor sends about the account as it goes (a live endpoint gets these) is not kept either.
    const farewells = (await system.fake.events()).filter((event) => event.data.object['customer'] === processorCustomerId || event.data.object['id'] === processorCustomerId);
    expect(farewells.map((event) => event.type)).toEqual(expect.arrayContaining(['customer.subscription.deleted', 'customer.deleted']));
    for (const event of farewells.filter((e) => ['customer.subscription.deleted', 'customer.deleted'].includes(e.type))) await system.deliverOk(event);

    expect(await tracesOf(system, [customerId, email, reader.visitorId])).toEqual([]);
    // What accounting needs stays, linked to no one.
    const [kept] = await system.querySchema('billing', 'SELECT status, price_id, processor_subscription_id FROM subscriptions WHERE processor_subscription_id = $1', [
      reader.processorSubscriptionId,
    ]);
    expect(kept).toEqual({ status: 'cancelled', price_id: priceId, processor_subscription_id: reader.processorSubscriptionId });

    expect((await system.admin(`/customers/${customerId}/export`)).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.admin(`/customers/${customerId}`, { method: 'DELETE' })).body).toMatchObject({ status: 404, code: 'not_found' });
  }, 120_000);
});
