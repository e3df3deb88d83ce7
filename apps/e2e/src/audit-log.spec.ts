import type { AuditEntryView, Page } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { call, type Answer, type Call } from './support/http';
import { addStaff, adminSession } from './support/staff';
import { ADMIN } from './support/constants';
import { SECRET_KEY, WEBHOOK_SECRET } from './support/fake-processor';
import { startGatewayOverNats, type TestGateway } from './support/system';
import { TestSystem } from './support/test-system';

jest.setTimeout(120_000);

const CLIENT = '203.0.113.7';
const FROM_CLIENT = { 'X-Forwarded-For': `198.51.100.1, ${CLIENT}` };

/**
 * The audit log (issue 27 item 7): every staff write through the gateway, with who, what, which
 * resource and from where; secrets never kept; read only; one log per publication; CSV export.
 */
describe('audit log of staff writes', () => {
  let system: TestSystem;
  /** The same services behind a gateway that trusts no proxy. */
  let direct: TestGateway;

  beforeAll(async () => {
    system = await TestSystem.boot({
      name: 'audit',
      services: ['access', 'billing', 'identity', 'branding', 'webhooks-out'],
      publication: { name: 'Audit Times', domains: ['audit.example'] },
      env: { gateway: { TRUST_PROXY: 'true' } },
      processor: true,
      connectProcessor: true,
      keys: 'website',
    });
    direct = await startGatewayOverNats(system.namespace);
  });

  afterAll(async () => {
    await direct?.close();
    await system?.close();
  });

  const log = (query = '', as: Call = { session: system.session }): Promise<Answer<Page<AuditEntryView>>> => system.api(`/admin/audit-log${query}`, as);
  const write = async (path: string, options: Call, status: number) => {
    const answer = await system.admin(path, { headers: FROM_CLIENT, ...options });
    expect([answer.status, answer.body]).toEqual([status, status === 204 ? undefined : expect.anything()]);
    return answer.body;
  };

  it('records each staff write with its actor, action, resource and client address, newest first, secrets redacted', async () => {
    const paywall = await write('/admin/paywalls', { body: { name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } } }, 201);
    await write(`/admin/paywalls/${paywall.id}`, { method: 'PATCH', body: { name: 'Premium articles' } }, 200);
    const product = await write('/admin/products', { body: { name: 'Digital', entitlements: [] } }, 201);
    const price = await write(`/admin/products/${product.id}/prices`, { body: { currency: 'eur', unitAmount: 900, interval: 'month' } }, 201);
    const customer = await write('/customers', { body: { email: `reader-${randomUUID()}@example.com`, name: 'Rea Reader', password: 'reader-secret-pw' } }, 201);
    const keys = await write('/admin/api-keys', { body: { name: 'newsletter' } }, 201);
    const webhook = await write('/admin/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['customer.created'] } }, 201);
    await write('/branding/admin', { method: 'PUT', body: { brandColor: '#112233' } }, 200);
    await write(`/admin/paywalls/${paywall.id}`, { method: 'DELETE' }, 204);

    const { status, body } = await log('?limit=100');
    expect(status).toBe(200);
    const actor = { staffId: expect.any(String), email: ADMIN.email, name: expect.any(String) };
    const entry = (action: string, method: string, route: string, resourceId: string | null, changes: unknown) =>
      expect.objectContaining({ actor, action, method, route, resourceId, changes, address: CLIENT, path: expect.stringContaining('/api/v1/') });
    expect(body.items.slice(0, 9)).toEqual([
      entry('PaywallsController_delete', 'DELETE', '/api/v1/admin/paywalls/:id', paywall.id, null),
      entry('BrandingController_update', 'PUT', '/api/v1/branding/admin', null, { brandColor: '#112233' }),
      entry('WebhooksController_create', 'POST', '/api/v1/admin/webhooks', webhook.id, { url: 'http://127.0.0.1:9/hook', events: ['customer.created'] }),
      entry('ApiKeysController_create', 'POST', '/api/v1/admin/api-keys', null, { name: 'newsletter' }),
      entry('CustomersController_create', 'POST', '/api/v1/customers', customer.id, { email: customer.email, name: 'Rea Reader', password: '[redacted]' }),
      entry('AdminProductsController_createPrice', 'POST', '/api/v1/admin/products/:id/prices', price.id, { currency: 'eur', unitAmount: 900, interval: 'month' }),
      entry('AdminProductsController_create', 'POST', '/api/v1/admin/products', product.id, { name: 'Digital', entitlements: [] }),
      entry('PaywallsController_update', 'PATCH', '/api/v1/admin/paywalls/:id', paywall.id, { name: 'Premium articles' }),
      entry('PaywallsController_create', 'POST', '/api/v1/admin/paywalls', paywall.id, { name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } }),
    ]);
    // The set-up's writes are there too: the key pair and the processor settings, their secrets redacted.
    expect(body.items).toContainEqual(expect.objectContaining({ action: 'AdminProcessorController_save', changes: { secretKey: '[redacted]', webhookSecret: '[redacted]' } }));
    const text = JSON.stringify(body);
    for (const secret of ['reader-secret-pw', keys.secretKey, webhook.secret, SECRET_KEY, WEBHOOK_SECRET, system.secretKey]) expect(text).not.toContain(secret);
    // Reads are not writes.
    expect(body.items.map((e) => e.method)).not.toContain('GET');
  });

  it('takes the address from X-Forwarded-For only behind TRUST_PROXY', async () => {
    const segment = await call(direct.url, '/api/v1/admin/segments', {
      session: system.session,
      headers: FROM_CLIENT,
      body: { name: 'Spoofed', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] },
    });
    expect(segment.status).toBe(201);
    const { body } = await log(`?resource=${segment.body.id}`);
    expect(body.items).toEqual([expect.objectContaining({ action: 'SegmentsController_create', address: '127.0.0.1' })]);
  });

  it('filters by actor, action, resource and time, and refuses bad filters with problem details', async () => {
    const editor = await system.staffSession('admin', system.publicationId);
    const before = new Date().toISOString();
    const paywall = await write('/admin/paywalls', { session: editor.session, body: { name: 'Editor wall', type: 'soft', match: { include: ['/news/**'] } } }, 201);
    await write(`/admin/paywalls/${paywall.id}`, { session: editor.session, method: 'PATCH', body: { enabled: false } }, 200);

    const byActor = (await log('?actor=ADMIN-')).body.items;
    expect(byActor.length).toBe(2);
    expect(new Set(byActor.map((e) => e.actor.email)).size).toBe(1);
    expect(byActor[0].actor.email).toMatch(/^admin-.*@example\.com$/);
    expect((await log(`?resource=${paywall.id}`)).body.items.map((e) => e.action)).toEqual(['PaywallsController_update', 'PaywallsController_create']);
    expect((await log(`?action=${encodeURIComponent('patch /api/v1/admin/paywalls')}&from=${encodeURIComponent(before)}`)).body.items.map((e) => e.resourceId)).toEqual([paywall.id]);
    expect((await log(`?action=PaywallsController_create&to=${encodeURIComponent(before)}`)).body.items.map((e) => e.resourceId)).not.toContain(paywall.id);
    // `%` and `_` are taken literally.
    expect((await log('?actor=%25')).body.items).toEqual([]);

    // Paging: one entry a page, in the same order.
    const first = await log('?limit=1');
    const second = await log(`?limit=1&cursor=${first.body.nextCursor}`);
    expect([first.body.items[0].resourceId, second.body.items[0].resourceId]).toEqual([paywall.id, paywall.id]);

    for (const [query, field] of [
      [`?from=${encodeURIComponent(before)}&to=${encodeURIComponent(before)}`, 'from'],
      ['?from=yesterday', 'from'],
      ['?cursor=not-a-cursor', 'cursor'],
      ['?limit=1000', 'limit'],
      ['?sort=asc', 'sort'],
    ]) {
      const refused: Answer = await log(query);
      expect([refused.status, refused.headers.get('content-type'), refused.body.code]).toEqual([400, expect.stringContaining('application/problem+json'), 'validation_failed']);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('exports the filtered log as CSV, formulas neutralised, and the secret key reads it as the API does', async () => {
    // A staff member whose name a spreadsheet would run as a formula.
    const account = await addStaff(system.databaseUrl, 'admin', system.publicationId);
    await system.adminSql('UPDATE staff SET name = $1 WHERE email = $2', ['=SUM(1,2)', account.email]);
    const { session } = await adminSession(system.gateway.url, account);
    const segment = await write('/admin/segments', { session, body: { name: 'Formula', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'tablet' }] } }, 201);
    const listed = (await log(`?resource=${segment.id}`)).body.items;
    expect(listed.map((e) => [e.action, e.actor])).toEqual([['SegmentsController_create', { staffId: expect.any(String), email: account.email, name: '=SUM(1,2)' }]]);

    const csv = await system.api(`/admin/audit-log/export?resource=${segment.id}`, { session: system.session });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain('audit-log.csv');
    const lines = (csv.body as string).trimEnd().split('\r\n');
    expect(lines).toEqual([
      'at,actor_email,actor_name,action,method,route,path,resource_id,address,request_id,changes',
      `${listed[0].at},${account.email},"'=SUM(1,2)",SegmentsController_create,POST,/api/v1/admin/segments,/api/v1/admin/segments,${segment.id},${CLIENT},${listed[0].requestId},"${JSON.stringify(listed[0].changes).replace(/"/g, '""')}"`,
    ]);

    const whole = await system.api('/admin/audit-log/export', { key: system.secretKey });
    const total = (await log('?limit=100', { key: system.secretKey })).body.items.length;
    expect((whole.body as string).trimEnd().split('\r\n').length).toBe(total + 1);
    const backwards = await system.api('/admin/audit-log/export?from=2001-01-01T00:00:00Z&to=2000-01-01T00:00:00Z', { key: system.secretKey });
    expect([backwards.status, backwards.body.code]).toEqual([400, 'validation_failed']);
    const wrongKey: Answer = await log('', { key: system.publishableKey });
    expect(wrongKey.body.code).toBe('api_key_wrong_kind');
  });

  it('lets a viewer read it and change nothing: there is no route that writes it, and a refused write is not a write', async () => {
    const viewer = await system.staffSession('viewer', system.publicationId);
    const seen = await log('', { session: viewer.session });
    expect(seen.status).toBe(200);
    expect(seen.body.items.length).toBeGreaterThan(0);
    const refused = await system.api('/admin/paywalls', { session: viewer.session, body: { name: 'Viewer wall', type: 'hard', match: { include: ['/x/**'] } } });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
    expect((await log('?action=PaywallsController_create')).body.items.map((e) => e.changes)).not.toContainEqual(expect.objectContaining({ name: 'Viewer wall' }));

    const entry = seen.body.items[0];
    for (const session of [viewer.session, system.session]) {
      for (const [method, path] of [
        ['POST', '/admin/audit-log'],
        ['PUT', '/admin/audit-log'],
        ['DELETE', '/admin/audit-log'],
        ['PATCH', `/admin/audit-log/${entry.id}`],
        ['DELETE', `/admin/audit-log/${entry.id}`],
      ]) {
        const answer = await system.api(path, { method, session, ...(method === 'DELETE' ? {} : { body: { address: 'nowhere' } }) });
        expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 404, 'not_found']);
      }
    }
    const document = await (await fetch(`${system.gateway.url}/docs/json`)).json();
    expect(Object.keys(document.paths['/api/v1/admin/audit-log'])).toEqual(['get']);
    expect(Object.keys(document.paths['/api/v1/admin/audit-log/export'])).toEqual(['get']);
    expect((await log(`?resource=${encodeURIComponent(entry.resourceId ?? entry.path)}`)).body.items).toContainEqual(entry);
  });

  it('records a publication-level write in the publication it concerns: joining one by invitation', async () => {
    const member = await addStaff(system.databaseUrl, 'admin');
    const invitation = await write('/admin/team/invitations', { body: { email: member.email, role: 'editor' } }, 201);
    const { session } = await adminSession(system.gateway.url, member);
    const joined = await call(system.gateway.url, '/api/v1/admin/invitations/accept', { session, headers: FROM_CLIENT, body: { token: invitation.token } });
    expect([joined.status, joined.body.publication.id]).toEqual([200, system.publicationId]);

    const entries = (await log('?action=invitations')).body.items;
    expect(entries.slice(0, 2)).toEqual([
      expect.objectContaining({ action: 'InvitationsController_accept', actor: expect.objectContaining({ email: member.email }), changes: { token: '[redacted]' }, address: CLIENT }),
      expect.objectContaining({ action: 'TeamController_invite', actor: expect.objectContaining({ email: ADMIN.email }), resourceId: invitation.id, changes: { email: member.email, role: 'editor' } }),
    ]);
    // Not in the log of the publication the member was signed in to (the session switched to the one joined: back, unrecorded).
    expect((await system.api('/admin/session/publication', { method: 'PUT', session, body: { publicationId: member.publicationId } })).status).toBe(200);
    expect((await log('', { session })).body.items).toEqual([]);
  });

  it('is append-only in the database itself: no update, no delete, no truncate', async () => {
    const sql = new Client({ connectionString: system.databaseUrl });
    await sql.connect();
    try {
      await expect(sql.query(`UPDATE admin.audit_entries SET address = '10.0.0.1'`)).rejects.toThrow(/append-only/);
      await expect(sql.query('DELETE FROM admin.audit_entries')).rejects.toThrow(/append-only/);
      await expect(sql.query('TRUNCATE admin.audit_entries')).rejects.toThrow(/append-only/);
    } finally {
      await sql.end();
    }
    expect((await log()).body.items.every((e) => e.address !== '10.0.0.1')).toBe(true);
  });

  it("keeps each publication's log to itself", async () => {
    const { session: otherSession, publicationId } = await system.otherPublicationSession();
    const otherKeys = await system.api('/admin/api-keys', { session: otherSession, body: { name: 'their-site' } });
    const theirs = await system.api('/admin/products', { session: otherSession, body: { name: 'Their plan', entitlements: [] } });
    expect([otherKeys.status, theirs.status]).toEqual([201, 201]);
    const ours = (await log('?limit=100')).body.items;
    expect(ours.map((e) => e.resourceId)).not.toContain(theirs.body.id);
    expect(ours.map((e) => e.action)).not.toContain('PublicationsController_create');

    // The other publication's log: its creation and its own writes, none of ours, by session or by its key.
    const seenThere = (await log('?limit=100', { session: otherSession })).body.items;
    expect(seenThere.map((e) => [e.action, e.resourceId])).toEqual([
      ['AdminProductsController_create', theirs.body.id],
      ['ApiKeysController_create', null],
      ['PublicationsController_create', publicationId],
    ]);
    const ourPaywall = ours.find((e) => e.action === 'PaywallsController_create')!;
    expect((await log(`?resource=${ourPaywall.resourceId}`, { key: otherKeys.body.secretKey })).body.items).toEqual([]);
    const exported = await system.api('/admin/audit-log/export', { session: otherSession });
    expect((exported.body as string).trimEnd().split('\r\n')).toHaveLength(4);
  });
});
