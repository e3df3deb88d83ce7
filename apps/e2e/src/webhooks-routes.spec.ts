import { OUTBOUND_EVENT_NAMES } from '@gatehouse/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { WebhooksSystem } from './support/webhooks';

/**
 * The registration routes (spec 4.6, decisions G1, G2) through the gateway, with webhooks-out as
 * deployed: https only, private targets refused. Targets are documentation addresses
 * (203.0.113.0/24): public, so accepted, and never reached because no event is emitted here.
 */
describe('outbound webhook registrations', () => {
  let system: WebhooksSystem;
  const target = (path: string) => `https://203.0.113.10/${path}`;

  beforeAll(async () => {
    system = await WebhooksSystem.start({ WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64') });
  }, 60_000);

  afterAll(() => system?.close());

  it('creates a webhook, showing its secret once and never again', async () => {
    const res = await system.admin('/admin/webhooks', {
      body: { url: target('crm'), events: ['subscription.created', 'customer.created', 'subscription.created'], description: 'CRM sync' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: target('crm'),
      events: ['subscription.created', 'customer.created'],
      description: 'CRM sync',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.any(String),
    });
    const { id, secret } = res.body;

    const list = await system.admin('/admin/webhooks');
    expect(list.status).toBe(200);
    const listed = list.body.webhooks.find((webhook: { id: string }) => webhook.id === id);
    expect(listed).toEqual({ id, url: target('crm'), events: ['subscription.created', 'customer.created'], description: 'CRM sync', createdAt: res.body.createdAt, deliveries: [] });
    expect(JSON.stringify(list.body)).not.toContain(secret.slice('whsec_'.length));

    // Stored encrypted: neither the secret nor its key material is in the row.
    const [row] = await system.query('SELECT * FROM webhooks WHERE id = $1', [id]);
    expect(JSON.stringify(row)).not.toContain(secret.slice('whsec_'.length));
    expect(row.secret_sealed).toMatch(/^v1\./);
  });

  it('changes the URL, events and description with PATCH, keeping the secret', async () => {
    const { id } = await system.register(target('patch-me'), ['invoice.paid']);
    const [before] = await system.query('SELECT secret_sealed FROM webhooks WHERE id = $1', [id]);

    const res = await system.admin(`/admin/webhooks/${id}`, { method: 'PATCH', body: { url: target('patched'), events: ['invoice.upcoming'], description: 'billing' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, url: target('patched'), events: ['invoice.upcoming'], description: 'billing', createdAt: expect.any(String) });
    expect(res.body).not.toHaveProperty('secret');

    const cleared = await system.admin(`/admin/webhooks/${id}`, { method: 'PATCH', body: { description: null } });
    expect(cleared.body).toMatchObject({ url: target('patched'), events: ['invoice.upcoming'], description: null });
    const [after] = await system.query('SELECT secret_sealed FROM webhooks WHERE id = $1', [id]);
    expect(after.secret_sealed).toBe(before.secret_sealed);
  });

  it('deletes a webhook with 204; it is gone from the list and further calls are 404', async () => {
    const { id } = await system.register(target('short-lived'), ['customer.deleted']);
    expect((await system.admin(`/admin/webhooks/${id}`, { method: 'DELETE' })).status).toBe(204);
    const list = await system.admin('/admin/webhooks');
    expect(list.body.webhooks.map((webhook: { id: string }) => webhook.id)).not.toContain(id);
    expect((await system.admin(`/admin/webhooks/${id}`, { method: 'DELETE' })).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.admin(`/admin/webhooks/${id}`, { method: 'PATCH', body: { description: 'x' } })).body).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('accepts every event of spec 6.2 and refuses anything else, naming the field', async () => {
    const all = await system.admin('/admin/webhooks', { body: { url: target('all'), events: OUTBOUND_EVENT_NAMES } });
    expect(all.status).toBe(201);
    expect(all.body.events).toEqual(OUTBOUND_EVENT_NAMES);

    for (const events of [['subscription.created', 'subscription.exploded'], [], 'customer.created', ['webhook.test'], [42]]) {
      const res = await system.admin('/admin/webhooks', { body: { url: target('bad-events'), events } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
      expect(res.body.errors.map((error: { field: string }) => error.field)).toEqual(expect.arrayContaining(['events']));
    }
  });

  it('refuses a malformed body with 400 naming the fields', async () => {
    const cases: Array<[unknown, string]> = [
      [{ events: ['invoice.paid'] }, 'url'],
      [{ url: 'not a url', events: ['invoice.paid'] }, 'url'],
      [{ url: target('x'), events: ['invoice.paid'], description: 'd'.repeat(501) }, 'description'],
      [{ url: target('x'), events: ['invoice.paid'], description: 'nul\u0000' }, 'description'],
      [{ url: `${target('x')}\u0000`, events: ['invoice.paid'] }, 'url'],
      [{ url: target('x'), events: ['invoice.paid'], secret: 'whsec_mine' }, 'secret'],
    ];
    for (const [body, field] of cases) {
      const res = await system.admin('/admin/webhooks', { body });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    }
    const { id } = await system.register(target('patch-validation'), ['invoice.paid']);
    for (const body of [{ url: null }, { events: [] }, { events: ['nope'] }]) {
      expect((await system.admin(`/admin/webhooks/${id}`, { method: 'PATCH', body })).body).toMatchObject({ status: 400, code: 'validation_failed' });
    }
  });

  it('refuses plain http and targets in private networks (decisions G2), at creation and on PATCH', async () => {
    const refusal = (message: string) => ({ status: 400, code: 'validation_failed', errors: [{ field: 'url', message }] });
    const http = await system.admin('/admin/webhooks', { body: { url: 'http://203.0.113.10/hook', events: ['invoice.paid'] } });
    expect(http.body).toMatchObject(refusal('must be an https URL'));
    for (const url of ['https://127.0.0.1/hook', 'https://localhost:8443/hook', 'https://10.0.0.8/hook', 'https://192.168.1.20/hook', 'https://169.254.169.254/latest', 'https://[::1]/hook', 'https://100.64.1.1/']) {
      const res = await system.admin('/admin/webhooks', { body: { url, events: ['invoice.paid'] } });
      expect(res.body).toMatchObject(refusal('must not point to a private, loopback or link-local address'));
    }
    const { id } = await system.register(target('stays-public'), ['invoice.paid']);
    const patched = await system.admin(`/admin/webhooks/${id}`, { method: 'PATCH', body: { url: 'https://127.0.0.1/hook' } });
    expect(patched.body).toMatchObject(refusal('must not point to a private, loopback or link-local address'));
    expect((await system.deliveriesOf(id)).length).toBe(0);
  });

  it("answers 404 for another publication's webhook, and never lists it", async () => {
    const { id } = await system.register(target('ours'), ['invoice.paid']);
    const other = await system.staffSession('admin');
    const theirs = await system.register(target('theirs'), ['invoice.paid'], other.session);

    const listed = await system.admin('/admin/webhooks', { session: other.session });
    expect(listed.body.webhooks.map((webhook: { id: string }) => webhook.id)).toEqual([theirs.id]);
    for (const [method, path, body] of [
      ['PATCH', `/admin/webhooks/${id}`, { description: 'hijack' }],
      ['DELETE', `/admin/webhooks/${id}`, undefined],
      ['POST', `/admin/webhooks/${id}/test`, undefined],
      ['POST', `/admin/webhooks/${id}/deliveries/${randomUUID()}/redeliver`, undefined],
    ] as const) {
      expect((await system.admin(path, { method, body, session: other.session })).body).toMatchObject({ status: 404, code: 'not_found' });
    }
    expect((await system.admin('/admin/webhooks/not-a-uuid', { method: 'DELETE' })).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.admin(`/admin/webhooks/${id}/deliveries/${randomUUID()}/redeliver`, { method: 'POST' })).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await system.admin('/admin/webhooks')).body.webhooks.map((webhook: { id: string }) => webhook.id)).toContain(id);
  });

  it('keeps a publication to 50 webhooks', async () => {
    const crowded = await system.staffSession('admin');
    for (let i = 0; i < 50; i++) await system.register(target(`crowd-${i}`), ['invoice.paid'], crowded.session);
    const refused = await system.admin('/admin/webhooks', { session: crowded.session, body: { url: target('crowd-51'), events: ['invoice.paid'] } });
    expect(refused.body).toMatchObject({ status: 409, code: 'conflict' });
    expect((await system.admin('/admin/webhooks', { session: crowded.session })).body.webhooks).toHaveLength(50);
  });

  it('lets a viewer list but not create, change, delete, test or redeliver; no session is 401', async () => {
    const { id } = await system.register(target('viewer'), ['invoice.paid']);
    const viewer = await system.staffSession('viewer', system.publicationId);
    const list = await system.admin('/admin/webhooks', { session: viewer.session });
    expect(list.status).toBe(200);
    expect(list.body.webhooks.map((webhook: { id: string }) => webhook.id)).toContain(id);
    for (const [method, path, body] of [
      ['POST', '/admin/webhooks', { url: target('v'), events: ['invoice.paid'] }],
      ['PATCH', `/admin/webhooks/${id}`, { description: 'viewer' }],
      ['DELETE', `/admin/webhooks/${id}`, undefined],
      ['POST', `/admin/webhooks/${id}/test`, undefined],
      ['POST', `/admin/webhooks/${id}/deliveries/${randomUUID()}/redeliver`, undefined],
    ] as const) {
      expect((await system.admin(path, { method, body, session: viewer.session })).body).toMatchObject({ status: 403, code: 'forbidden' });
    }
    expect((await system.admin('/admin/webhooks', { session: undefined })).body).toMatchObject({ status: 401, code: 'session_required' });
  });
});
