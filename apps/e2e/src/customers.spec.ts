import { deleteEventStream } from '@gatehouse/bus';
import { adminService } from '@gatehouse/admin';
import type { RunningService } from '@gatehouse/runtime';
import { Events } from '@gatehouse/contracts';
import { identityService } from '@gatehouse/identity';
import { createTestDatabase, eventually, type TestDatabase, testNatsUrl, uniqueNamespace } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { call, type Call } from './support/http';
import { anotherTenant, apiOf, bootstrapTenant, STAFF_ENV, type Api, type Tenant } from './support/customers';
import { EventReader } from './support/events';
import { startGatewayOverNats, startServiceOverNats, type TestGateway } from './support/system';

interface CustomerRecord {
  id: string;
  email: string;
  name: string;
  hasPassword: boolean;
  createdAt: string;
  updatedAt: string;
}

const CUSTOMER_EVENTS = [Events.CustomerCreated.name, Events.CustomerUpdated.name, Events.CustomerDeleted.name];
const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

describe('customer records (spec 4.7, decisions H3)', () => {
  const namespace = uniqueNamespace();
  let db: TestDatabase;
  const services: RunningService[] = [];
  let gateway: TestGateway;
  let api: Api;
  let alpha: Tenant;
  let beta: Tenant;
  let events: EventReader;

  /** The two credentials the routes accept, for the bootstrap publication. */
  const asAlpha = (credential: 'session' | 'secret key'): Call =>
    credential === 'session' ? { session: alpha.session } : { key: alpha.keys.secretKey };

  async function createCustomer(as: Call, body: Record<string, unknown>): Promise<CustomerRecord> {
    const created = await api<CustomerRecord>('/customers', { ...as, body });
    expect(created.status).toBe(201);
    return created.body;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    services.push(await startServiceOverNats(identityService, db.url, namespace, STAFF_ENV));
    services.push(await startServiceOverNats(adminService, db.url, namespace, STAFF_ENV));
    gateway = await startGatewayOverNats(namespace);
    api = apiOf(gateway.url);
    alpha = await bootstrapTenant(api);
    beta = await anotherTenant(api, 'beta');
    events = await EventReader.start(namespace, CUSTOMER_EVENTS);
  }, 60_000);

  afterAll(async () => {
    await events?.close();
    await gateway?.close();
    for (const service of services) await service.close();
    await db?.drop();
    await deleteEventStream([testNatsUrl()], namespace);
  });

  describe.each(['session', 'secret key'] as const)('with a %s', (credential) => {
    it('creates, lists, finds by email, updates and deletes a customer', async () => {
      const as = asAlpha(credential);
      const email = newEmail('Ann');
      const created = await createCustomer(as, { email: `  ${email.toUpperCase()} `, name: 'Ann Reader' });
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email: email.toLowerCase(),
        name: 'Ann Reader',
        emailVerified: false,
        hasPassword: false,
        createdAt: expect.any(String),
        updatedAt: created.createdAt,
      });

      const listed = await api<{ items: CustomerRecord[]; nextCursor: string | null }>('/customers?limit=100', as);
      expect(listed.status).toBe(200);
      expect(listed.body.items).toContainEqual(created);
      const found = await api(`/customers?email=${encodeURIComponent(email.toUpperCase())}`, as);
      expect(found.body).toEqual({ items: [created], nextCursor: null });

      const renamed = await api<CustomerRecord>(`/customers/${created.id}`, { ...as, method: 'PATCH', body: { name: 'Ann Renamed', password: 'a new password' } });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ id: created.id, email: created.email, name: 'Ann Renamed', hasPassword: true });

      expect((await api(`/customers/${created.id}`, { ...as, method: 'DELETE' })).status).toBe(204);
      expect((await api(`/customers?email=${encodeURIComponent(email)}`, as)).body).toEqual({ items: [], nextCursor: null });
      expect((await api(`/customers/${created.id}`, { ...as, method: 'DELETE' })).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await api(`/customers/${created.id}`, { ...as, method: 'PATCH', body: { name: 'Ghost' } })).body).toMatchObject({ status: 404, code: 'not_found' });
    });
  });

  it('refuses a publishable key on every route, and a caller without credentials', async () => {
    const customer = await createCustomer({ key: alpha.keys.secretKey }, { email: newEmail('pk'), name: 'Pat' });
    const routes: Array<[string, Call]> = [
      ['/customers', {}],
      ['/customers', { body: { email: newEmail('pk'), name: 'Pat' } }],
      [`/customers/${customer.id}`, { method: 'PATCH', body: { name: 'Pat' } }],
      [`/customers/${customer.id}`, { method: 'DELETE' }],
    ];
    for (const [path, options] of routes) {
      expect((await api(path, { ...options, key: alpha.keys.publishableKey })).body).toMatchObject({ status: 403, code: 'api_key_wrong_kind' });
      expect((await api(path, options)).body).toMatchObject({ status: 401, code: 'session_required' });
    }
  });

  it('answers 409 email_taken for an email already registered in the publication, and frees it when its customer is deleted', async () => {
    const email = newEmail('dup');
    const first = await createCustomer({ session: alpha.session }, { email, name: 'First' });
    expect((await api('/customers', { key: alpha.keys.secretKey, body: { email: email.toUpperCase(), name: 'Second' } })).body).toMatchObject({
      status: 409,
      code: 'email_taken',
    });
    const other = await createCustomer({ session: alpha.session }, { email: newEmail('other'), name: 'Other' });
    const clash = await api(`/customers/${other.id}`, { session: alpha.session, method: 'PATCH', body: { email } });
    expect(clash.body).toMatchObject({ status: 409, code: 'email_taken' });

    // The same email in another publication is another customer.
    await createCustomer({ session: beta.session }, { email, name: 'Elsewhere' });

    expect((await api(`/customers/${first.id}`, { session: alpha.session, method: 'DELETE' })).status).toBe(204);
    const again = await createCustomer({ key: alpha.keys.secretKey }, { email, name: 'Again' });
    expect(again.id).not.toBe(first.id);
  });

  it("answers 404 for another publication's customer and never lists it", async () => {
    const betaCustomer = await createCustomer({ key: beta.keys.secretKey }, { email: newEmail('beta'), name: 'Beta Reader' });
    for (const as of [{ session: alpha.session }, { key: alpha.keys.secretKey }]) {
      expect((await api(`/customers/${betaCustomer.id}`, { ...as, method: 'PATCH', body: { name: 'Stolen' } })).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await api(`/customers/${betaCustomer.id}`, { ...as, method: 'DELETE' })).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await api(`/customers?email=${encodeURIComponent(betaCustomer.email)}`, as)).body).toEqual({ items: [], nextCursor: null });
    }
    expect((await api('/customers/not-a-uuid', { session: alpha.session, method: 'DELETE' })).body).toMatchObject({ status: 404, code: 'not_found' });
    const stillThere = await api(`/customers?email=${encodeURIComponent(betaCustomer.email)}`, { session: beta.session });
    expect(stillThere.body.items).toEqual([betaCustomer]);
  });

  it('validates the bodies, naming the field', async () => {
    const as = { key: alpha.keys.secretKey };
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ email: 'not-an-email', name: 'Ann' }, 'email'],
      [{ email: newEmail('v'), name: '' }, 'name'],
      [{ email: newEmail('v'), name: 'Ann', password: 'short' }, 'password'],
      [{ email: newEmail('v'), name: 'Ann', password: null }, 'password'],
      [{ email: newEmail('v'), name: 'Ann', role: 'admin' }, 'role'],
    ];
    for (const [body, field] of refusals) {
      const refused = await api('/customers', { ...as, body });
      expect(refused.body).toMatchObject({ status: 400, code: 'validation_failed', errors: expect.arrayContaining([expect.objectContaining({ field })]) });
    }
    const customer = await createCustomer(as, { email: newEmail('v'), name: 'Val' });
    const nulled = await api(`/customers/${customer.id}`, { ...as, method: 'PATCH', body: { name: null } });
    expect(nulled.body).toMatchObject({ status: 400, code: 'validation_failed', errors: expect.arrayContaining([expect.objectContaining({ field: 'name' })]) });
  });

  it('pages through the list with the cursor, newest first, without gaps or repeats', async () => {
    const gamma = await anotherTenant(api, 'gamma');
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await createCustomer({ session: gamma.session }, { email: newEmail(`page${i}`), name: `Reader ${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const page = await api<{ items: CustomerRecord[]; nextCursor: string | null }>(`/customers${query}`, { key: gamma.keys.secretKey });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((item) => item.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...created].reverse());
    expect((await api('/customers?limit=0', { session: gamma.session })).body).toMatchObject({ status: 400, errors: [expect.objectContaining({ field: 'limit' })] });
    expect((await api('/customers?cursor=bogus', { session: gamma.session })).body).toMatchObject({ status: 400, errors: [{ field: 'cursor', message: expect.any(String) }] });
  });

  it('emits customer.created, customer.updated and customer.deleted with their data', async () => {
    const created = await createCustomer({ session: alpha.session }, { email: newEmail('evt'), name: 'Eve' });
    await api(`/customers/${created.id}`, { key: alpha.keys.secretKey, method: 'PATCH', body: { email: `renamed-${created.email}` } });
    await api(`/customers/${created.id}`, { session: alpha.session, method: 'DELETE' });

    const ofCustomer = await eventually(() => {
      const mine = events.received.filter((event) => (event.data as { customerId: string }).customerId === created.id);
      return mine.length === 3 ? mine : undefined;
    });
    const data = { customerId: created.id, name: 'Eve', emailVerified: false, createdAt: created.createdAt };
    expect(ofCustomer.map(({ name, publicationId, data }) => ({ name, publicationId, data }))).toEqual([
      { name: 'customer.created', publicationId: alpha.publicationId, data: { ...data, email: created.email } },
      { name: 'customer.updated', publicationId: alpha.publicationId, data: { ...data, email: `renamed-${created.email}` } },
      { name: 'customer.deleted', publicationId: alpha.publicationId, data: { ...data, email: `renamed-${created.email}` } },
    ]);
    for (const event of ofCustomer) expect(event).toMatchObject({ id: expect.any(String), occurredAt: expect.any(String) });
  });

  it('lets a customer created with a password log in, and one created without cannot', async () => {
    const withPassword = await createCustomer({ key: alpha.keys.secretKey }, { email: newEmail('pw'), name: 'Pam', password: 'reader-password' });
    expect(withPassword.hasPassword).toBe(true);
    const login = await api('/auth/customers/login', { key: alpha.keys.publishableKey, body: { email: withPassword.email, password: 'reader-password' } });
    expect(login.status).toBe(200);
    expect(login.body.customer).toEqual({ id: withPassword.id, email: withPassword.email, name: 'Pam', emailVerified: false });

    const withoutPassword = await createCustomer({ session: alpha.session }, { email: newEmail('nopw'), name: 'Noah' });
    const refused = await api('/auth/customers/login', { key: alpha.keys.publishableKey, body: { email: withoutPassword.email, password: 'any-password' } });
    expect(refused.body).toMatchObject({ status: 401, code: 'invalid_credentials' });
  });

  it("a new password ends the customer's sessions", async () => {
    const email = newEmail('reset');
    const registered = await api('/auth/customers/register', { key: alpha.keys.publishableKey, body: { email, password: 'old-password', name: 'Rae' } });
    expect(registered.status).toBe(201);
    const changed = await api(`/customers/${registered.body.customer.id}`, { key: alpha.keys.secretKey, method: 'PATCH', body: { password: 'new-password' } });
    expect(changed.status).toBe(200);
    const refresh = await api('/auth/customers/refresh', { key: alpha.keys.publishableKey, body: { refreshToken: registered.body.refreshToken } });
    expect(refresh.body).toMatchObject({ status: 401, code: 'refresh_token_invalid' });
    const login = await api('/auth/customers/login', { key: alpha.keys.publishableKey, body: { email, password: 'new-password' } });
    expect(login.status).toBe(200);
  });

  it("a deleted customer's refresh token and access token stop working, on every gateway", async () => {
    const second = await startGatewayOverNats(namespace);
    try {
      const registered = await api('/auth/customers/register', {
        key: alpha.keys.publishableKey,
        body: { email: newEmail('gone'), password: 'reader-password', name: 'Gus' },
      });
      const { accessToken, refreshToken, customer } = registered.body;
      const me = (base: string) => call(base, '/api/v1/auth/customers/me', { key: alpha.keys.publishableKey, token: accessToken });
      expect((await me(gateway.url)).status).toBe(200);
      expect((await me(second.url)).status).toBe(200);

      expect((await api(`/customers/${customer.id}`, { session: alpha.session, method: 'DELETE' })).status).toBe(204);

      expect((await me(gateway.url)).body).toMatchObject({ status: 401, code: 'token_invalid' });
      const onSecond = await eventually(async () => {
        const answer = await me(second.url);
        return answer.status === 401 ? answer : undefined;
      }, 3_000);
      expect(onSecond.body).toMatchObject({ code: 'token_invalid' });
      const refreshed = await api('/auth/customers/refresh', { key: alpha.keys.publishableKey, body: { refreshToken } });
      expect(refreshed.body).toMatchObject({ status: 401, code: 'refresh_token_invalid' });
    } finally {
      await second.close();
    }
  });

  it("refuses a deleted customer's access token on a gateway started after the deletion", async () => {
    const registered = await api('/auth/customers/register', {
      key: alpha.keys.publishableKey,
      body: { email: newEmail('restart'), password: 'reader-password', name: 'Rita' },
    });
    const { accessToken, customer } = registered.body;
    expect((await api(`/customers/${customer.id}`, { session: alpha.session, method: 'DELETE' })).status).toBe(204);
    // A replica that was not running when the deletion was broadcast: a restart, or one scaled up.
    const restarted = await startGatewayOverNats(namespace);
    try {
      const me = () => call(restarted.url, '/api/v1/auth/customers/me', { key: alpha.keys.publishableKey, token: accessToken });
      const refused = await eventually(async () => {
        const answer = await me();
        return answer.status === 401 ? answer : undefined;
      }, 3_000);
      expect(refused.body).toMatchObject({ code: 'token_invalid' });
      // Another customer's token still works there.
      const other = await api('/auth/customers/register', { key: alpha.keys.publishableKey, body: { email: newEmail('stays'), password: 'reader-password', name: 'Stan' } });
      expect((await call(restarted.url, '/api/v1/auth/customers/me', { key: alpha.keys.publishableKey, token: other.body.accessToken })).status).toBe(200);
    } finally {
      await restarted.close();
    }
  });

  describe('self-registration as a publication setting (issue 24)', () => {
    it("closed by staff, registration answers 403 registration_closed in plain words, and existing readers still sign in, get codes and reset passwords", async () => {
      const members = await anotherTenant(api, 'members');
      const key = members.keys.publishableKey;
      const register = (email: string) => api('/auth/customers/register', { key, body: { email, password: 'reader-password', name: 'Mia' } });
      const existing = newEmail('member');
      expect((await register(existing)).status).toBe(201);

      const closed = await api(`/admin/publications/${members.publicationId}`, { method: 'PATCH', session: members.session, body: { selfRegistration: false } });
      expect(closed.body).toMatchObject({ id: members.publicationId, selfRegistration: false });
      const refused = await register(newEmail('newcomer'));
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ code: 'registration_closed', detail: 'This site does not take new accounts. If you already have one, sign in.' });
      // The secret key too: a publisher's server makes accounts with POST /customers.
      expect((await api('/auth/customers/register', { key: members.keys.secretKey, body: { email: newEmail('server'), password: 'reader-password', name: 'Sam' } })).body).toMatchObject({
        status: 403,
        code: 'registration_closed',
      });
      expect((await api('/customers', { key: members.keys.secretKey, body: { email: newEmail('staff-made'), name: 'Sid' } })).status).toBe(201);

      const login = await api('/auth/customers/login', { key, body: { email: existing, password: 'reader-password' } });
      expect(login.status).toBe(200);
      expect((await api('/auth/customers/login-code', { key, body: { email: existing } })).status).toBe(202);
      expect((await api('/auth/customers/password-reset', { key, body: { email: existing } })).status).toBe(202);
      const listed = await api('/admin/publications', { session: members.session });
      expect(listed.body.items.find((p: { id: string }) => p.id === members.publicationId)).toMatchObject({ selfRegistration: false });

      await api(`/admin/publications/${members.publicationId}`, { method: 'PATCH', session: members.session, body: { selfRegistration: true } });
      expect((await register(newEmail('welcome'))).status).toBe(201);
    });

    it('takes only true or false for the setting, and only with a staff session', async () => {
      const bad = await api(`/admin/publications/${beta.publicationId}`, { method: 'PATCH', session: beta.session, body: { selfRegistration: 'no' } });
      expect(bad.body).toMatchObject({ status: 400, code: 'validation_failed', errors: [expect.objectContaining({ field: 'selfRegistration' })] });
      expect((await api(`/admin/publications/${beta.publicationId}`, { method: 'PATCH', body: { selfRegistration: false } })).body).toMatchObject({ status: 401, code: 'session_required' });
      expect((await api('/auth/customers/register', { key: beta.keys.publishableKey, body: { email: newEmail('open'), password: 'reader-password', name: 'Ola' } })).status).toBe(201);
    });
  });
});
