import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { AccessConfig, AccessRetention, accessService } from '@gatehouse/access';
import { AdminRetention, adminService } from '@gatehouse/admin';
import { BillingRetention, billingService } from '@gatehouse/billing';
import { BusClient, createRequestClient, EventRetention, type BusOptions } from '@gatehouse/bus';
import { AdminRequests, IdentityRequests } from '@gatehouse/contracts';
import { IdentityRetention, identityService } from '@gatehouse/identity';
import { startService, type RunningService } from '@gatehouse/runtime';
import { loadConfig, sha256Hex } from '@gatehouse/platform';
import { createTestDatabase, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { DeliveryRetention, webhooksOutService } from '@gatehouse/webhooks-out';
import { SteerableClock } from './support/billing';
import { startServiceOverNats } from './support/system';

jest.setTimeout(60_000);

const DAY = 24 * 3600_000;
const HOUR = 3600_000;

/** Rows written today, then the clock moved forward: each kind goes past its age and stays before it. */
describe('retention', () => {
  const namespace = uniqueNamespace('retention');
  const clock = new SteerableClock();
  const publicationId = randomUUID();
  let db: TestDatabase;
  let access: RunningService;
  let webhooksOut: RunningService;
  /** On the real clock: rows are written at ages relative to now. */
  let identity: RunningService;
  let admin: RunningService;
  let billing: RunningService;
  let sql: Client;
  /** Requests as the gateway sends them. */
  let bus: BusClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { LOG_LEVEL: 'silent', NATS_URL: testNatsUrl(), DATABASE_URL: db.url, BUS_NAMESPACE: namespace };
    const transport = { kind: 'nats' as const, servers: [testNatsUrl()] };
    [access, webhooksOut] = await Promise.all([
      startService(accessService, { config: loadConfig(AccessConfig, env), transport, databaseUrl: db.url, clock, migrate: true }),
      startService(webhooksOutService, { config: loadConfig(webhooksOutService.config, env), transport, databaseUrl: db.url, clock, migrate: true }),
    ]);
    // Retention set apart from the defaults, to show the settings govern it.
    [identity, admin, billing] = await Promise.all([
      startServiceOverNats(identityService, db.url, namespace, { REFRESH_TOKEN_RETENTION_DAYS: '10', EMAIL_MESSAGE_RETENTION_DAYS: '20' }),
      startServiceOverNats(adminService, db.url, namespace, { BCRYPT_COST: '4', STAFF_SESSION_RETENTION_DAYS: '3', TEAM_CHANGES_RETENTION_DAYS: '100', AUDIT_LOG_RETENTION_DAYS: '200' }),
      startServiceOverNats(billingService, db.url, namespace, { PROCESSOR_EVENT_RETENTION_DAYS: '15', EVENT_RETENTION_DAYS: '2' }),
    ]);
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    const options: BusOptions = { service: 'gateway', namespace, transport };
    bus = new BusClient(options, createRequestClient(options));
  });

  afterAll(async () => {
    await sql?.end();
    await bus?.onApplicationShutdown();
    for (const service of [access, webhooksOut, identity, admin, billing]) await service?.close();
    await db?.drop();
  });

  const count = async (query: string, params: unknown[] = []) => Number((await sql.query(query, params)).rows[0].count);

  it("prunes meter views, idle visits, old hourly figures, recorded edge batches and organisations' old readers of access past their age, and keeps the rest", async () => {
    const paywallId = randomUUID();
    const written = Date.now();
    const view = (at: number, reader: string) =>
      sql.query('INSERT INTO access.meter_views (publication_id, paywall_id, reader_key, page, viewed_at) VALUES ($1, $2, $3, $4, $5)', [publicationId, paywallId, reader, '/a', new Date(at)]);
    const visit = (at: number, reader: string) =>
      sql.query('INSERT INTO access.visits (publication_id, reader_key, count, last_visit_at) VALUES ($1, $2, 3, $3)', [publicationId, reader, new Date(at)]);
    const batch = (at: number) => sql.query('INSERT INTO access.edge_check_batches (id, received_at) VALUES ($1, $2)', [randomUUID(), new Date(at)]);
    const hourly = (at: Date, shown: number) =>
      sql.query('INSERT INTO access.hourly_stats (publication_id, hour, paywall_id, shown, checks_granted) VALUES ($1, $2, $3, $4, 1)', [publicationId, at, paywallId, shown]);
    const organisationId = randomUUID();
    const organisationReader = (day: Date, reader: string) =>
      sql.query('INSERT INTO access.organisation_readers (publication_id, organisation_id, day, reader_key) VALUES ($1, $2, $3, $4)', [publicationId, organisationId, day, reader]);

    // Written today.
    await view(written, 'old-reader');
    await visit(written, 'idle-reader');
    await batch(written);
    const oldDay = new Date(Math.floor(written / DAY) * DAY - DAY);
    for (const [hour, shown] of [[0, 1], [5, 2], [17, 4]]) await hourly(new Date(oldDay.getTime() + hour * HOUR), shown);
    await organisationReader(oldDay, 'c:campus-reader');
    await organisationReader(oldDay, 'v:campus-visitor');

    clock.advance(100 * DAY);
    const now = clock.now().getTime();
    // Written under the moved clock, within their ages.
    await view(now, 'current-reader');
    await visit(now - 89 * DAY, 'recent-reader');
    await batch(now - HOUR);
    const recentDay = new Date(Math.floor((now - 80 * DAY) / DAY) * DAY);
    await hourly(new Date(recentDay.getTime() + 3 * HOUR), 7);
    await hourly(new Date(recentDay.getTime() + 9 * HOUR), 8);
    await organisationReader(recentDay, 'c:campus-reader');

    const pruned = await access.app.get(AccessRetention).prune();
    expect(pruned).toEqual({ meterViews: 1, visits: 1, passes: 0, hoursCompacted: 2, edgeCheckBatches: 1, organisationReaders: 2 });

    expect((await sql.query('SELECT reader_key FROM access.meter_views')).rows).toEqual([{ reader_key: 'current-reader' }]);
    expect((await sql.query('SELECT reader_key FROM access.visits')).rows).toEqual([{ reader_key: 'recent-reader' }]);
    // The old day is one row with the day's sums; the recent hours are untouched.
    const stats = (await sql.query('SELECT hour, shown, checks_granted FROM access.hourly_stats ORDER BY hour')).rows;
    expect(stats).toEqual([
      { hour: oldDay, shown: '7', checks_granted: '3' },
      { hour: new Date(recentDay.getTime() + 3 * HOUR), shown: '7', checks_granted: '1' },
      { hour: new Date(recentDay.getTime() + 9 * HOUR), shown: '8', checks_granted: '1' },
    ]);
    // An organisation's readers of the old day are no longer named, only counted; the recent day's keep their keys.
    expect((await sql.query('SELECT day, reader_key FROM access.organisation_readers')).rows).toEqual([{ day: recentDay, reader_key: 'c:campus-reader' }]);
    expect((await sql.query('SELECT hour, folded_readers FROM access.organisation_reads WHERE organisation_id = $1', [organisationId])).rows).toEqual([{ hour: oldDay, folded_readers: '2' }]);
    // A second round finds nothing more to do.
    expect(await access.app.get(AccessRetention).prune()).toEqual({ meterViews: 0, visits: 0, passes: 0, hoursCompacted: 0, edgeCheckBatches: 0, organisationReaders: 0 });
  });

  it('prunes finished webhook deliveries and their attempts after 30 days, and keeps pending and recent ones', async () => {
    const webhookId = randomUUID();
    const now = clock.now();
    await sql.query(
      `INSERT INTO webhooks_out.webhooks (id, publication_id, url, events, secret_sealed, created_at, updated_at) VALUES ($1, $2, 'https://example.com/hook', '{subscription.created}', 'sealed', $3, $3)`,
      [webhookId, publicationId, now],
    );
    const delivery = async (ageDays: number, status: string) => {
      const id = randomUUID();
      const at = new Date(now.getTime() - ageDays * DAY);
      await sql.query(`INSERT INTO webhooks_out.deliveries (id, webhook_id, event_id, event, body, status, created_at) VALUES ($1, $2, $3, 'subscription.created', '{}', $4, $5)`, [
        id,
        webhookId,
        randomUUID(),
        status,
        at,
      ]);
      await sql.query(
        `INSERT INTO webhooks_out.delivery_attempts (id, delivery_id, webhook_id, number, series_position, status, due_at, created_at) VALUES ($1, $2, $3, 1, 1, $4, $5, $5)`,
        [randomUUID(), id, webhookId, status === 'pending' ? 'pending' : status, at],
      );
      return id;
    };
    const old = await delivery(31, 'succeeded');
    const oldFailed = await delivery(45, 'failed');
    const pending = await delivery(45, 'pending');
    const recent = await delivery(29, 'failed');

    expect(await webhooksOut.app.get(DeliveryRetention).prune()).toBe(2);
    const left = (await sql.query('SELECT id FROM webhooks_out.deliveries ORDER BY created_at')).rows.map((r) => r.id);
    expect(left.sort()).toEqual([pending, recent].sort());
    expect(await count('SELECT count(*) FROM webhooks_out.delivery_attempts WHERE delivery_id = ANY($1)', [[old, oldFailed]])).toBe(0);
    expect(await count('SELECT count(*) FROM webhooks_out.delivery_attempts')).toBe(2);
  });

  it("prunes the newsletter and data passes of readers gone past VISITS_RETENTION_DAYS, and keeps those of readers who come back", async () => {
    const publication = randomUUID();
    const customer = randomUUID();
    const now = clock.now().getTime();
    const pass = (reader: string, ageDays: number) =>
      sql.query(`INSERT INTO access.visitor_passes (publication_id, reader_key, kind, fields, passed_at) VALUES ($1, $2, 'newsletter', '{}', $3)`, [
        publication,
        reader,
        new Date(now - ageDays * DAY),
      ]);
    const visit = (reader: string, ageDays: number) =>
      sql.query('INSERT INTO access.visits (publication_id, reader_key, count, last_visit_at) VALUES ($1, $2, 1, $3)', [publication, reader, new Date(now - ageDays * DAY)]);
    await pass('v:gone', 120);
    await visit('v:gone', 95);
    await pass('v:back', 120);
    await visit('v:back', 1);
    // Passed as a visitor, since signed in: the customer's own visits keep the pass.
    await pass('v:signed-in', 120);
    await sql.query(`INSERT INTO access.visitor_links (publication_id, visitor_id, customer_id, linked_at) VALUES ($1, 'signed-in', $2, $3)`, [publication, customer, new Date(now - 100 * DAY)]);
    await visit(`c:${customer}`, 2);
    await pass('v:new', 1);

    expect((await access.app.get(AccessRetention).prune())?.passes).toBe(1);
    const left = (await sql.query('SELECT reader_key FROM access.visitor_passes WHERE publication_id = $1 ORDER BY reader_key', [publication])).rows.map((r) => r.reader_key);
    expect(left).toEqual(['v:back', 'v:new', 'v:signed-in']);
  });

  it('prunes refresh tokens REFRESH_TOKEN_RETENTION_DAYS after they expired or were revoked, and keeps live and recently ended ones', async () => {
    const publication = randomUUID();
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * DAY);
    const customer = randomUUID();
    await sql.query(`INSERT INTO identity.customers (id, publication_id, email, name, created_at, updated_at) VALUES ($1, $2, 'reader@example.com', 'Reader', $3, $3)`, [
      customer,
      publication,
      ago(90),
    ]);
    const family = async (createdDaysAgo: number, revokedDaysAgo: number | null) => {
      const id = randomUUID();
      await sql.query('INSERT INTO identity.refresh_token_families (id, customer_id, publication_id, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5)', [
        id,
        customer,
        publication,
        ago(createdDaysAgo),
        revokedDaysAgo === null ? null : ago(revokedDaysAgo),
      ]);
      return id;
    };
    const token = async (familyId: string, name: string, issuedDaysAgo: number, state: { used?: number; revoked?: number } = {}) => {
      await sql.query(
        `INSERT INTO identity.refresh_tokens (id, family_id, customer_id, publication_id, token_hash, issued_at, expires_at, used_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          randomUUID(),
          familyId,
          customer,
          publication,
          name,
          ago(issuedDaysAgo),
          ago(issuedDaysAgo - 30),
          state.used === undefined ? null : ago(state.used),
          state.revoked === undefined ? null : ago(state.revoked),
        ],
      );
    };
    // A sign-in rotated for 60 days: its used tokens stay until they expire, and 10 days more.
    const live = await family(60, null);
    await token(live, 'expired-long-ago', 60, { used: 59 });
    await token(live, 'expired-lately', 35, { used: 34 });
    await token(live, 'used-unexpired', 5, { used: 1 });
    const liveToken = 'live-refresh-token';
    await token(live, sha256Hex(liveToken), 1);
    // Signed out 11 days ago: the whole family goes, the token used before too.
    const signedOut = await family(20, 11);
    await token(signedOut, 'signed-out-used', 20, { used: 15 });
    await token(signedOut, 'signed-out', 15, { revoked: 11 });
    // Signed out 2 days ago: kept for now.
    const recentlyOut = await family(5, 2);
    await token(recentlyOut, 'recently-out', 5, { revoked: 2 });
    // A sign-in never refreshed, its only token expired 20 days ago.
    const abandoned = await family(50, null);
    await token(abandoned, 'abandoned', 50);

    expect(await identity.app.get(IdentityRetention).prune()).toEqual({ refreshTokens: 4, refreshTokenFamilies: 2, emailMessages: 0, emailTokens: 0 });
    const tokens = (await sql.query('SELECT token_hash FROM identity.refresh_tokens WHERE publication_id = $1 ORDER BY token_hash', [publication])).rows.map((r) => r.token_hash);
    expect(tokens).toEqual([sha256Hex(liveToken), 'expired-lately', 'recently-out', 'used-unexpired'].sort());
    const families = (await sql.query('SELECT id FROM identity.refresh_token_families WHERE publication_id = $1', [publication])).rows.map((r) => r.id);
    expect(families.sort()).toEqual([live, recentlyOut].sort());
    // The reader still signed in notices nothing: their token still refreshes.
    const refreshed = await bus.request(IdentityRequests.Refresh, { publicationId: publication, refreshToken: liveToken });
    expect(refreshed.refreshToken).toEqual(expect.any(String));
  });

  it('prunes account email sent or given up, and its links expired or used, EMAIL_MESSAGE_RETENTION_DAYS ago; keeps recent ones and those still to send', async () => {
    const publication = randomUUID();
    const now = Date.now();
    const message = async (subject: string, status: string, createdDaysAgo: number, dueInDays = 0) => {
      await sql.query(
        `INSERT INTO identity.email_messages (id, publication_id, kind, to_address, recipient_name, language, status, due_at, created_at, subject, sent_at)
         VALUES ($1, $2, 'password_reset', 'reader@example.com', 'Reader', 'en', $3, $4, $5, $6, $7)`,
        [randomUUID(), publication, status, new Date(now + dueInDays * DAY), new Date(now - createdDaysAgo * DAY), subject, status === 'sent' ? new Date(now - createdDaysAgo * DAY) : null],
      );
    };
    await message('old sent', 'sent', 21);
    await message('old failed', 'failed', 30);
    await message('recent sent', 'sent', 19);
    // Waiting for a retry (due tomorrow): its link and code are still to be sent.
    await message('old pending', 'pending', 25, 1);

    const customer = randomUUID();
    await sql.query(`INSERT INTO identity.customers (id, publication_id, email, name, created_at, updated_at) VALUES ($1, $2, 'linked@example.com', 'Reader', $3, $3)`, [customer, publication, new Date(now - 90 * DAY)]);
    const link = (name: string, expiresDaysAgo: number, usedDaysAgo: number | null = null) =>
      sql.query(`INSERT INTO identity.email_tokens (id, publication_id, customer_id, purpose, token_hash, created_at, expires_at, used_at) VALUES ($1, $2, $3, 'password_reset', $4, $5, $6, $7)`, [
        randomUUID(),
        publication,
        customer,
        name,
        new Date(now - (expiresDaysAgo + 1) * DAY),
        new Date(now - expiresDaysAgo * DAY),
        usedDaysAgo === null ? null : new Date(now - usedDaysAgo * DAY),
      ]);
    await link('expired-long-ago', 21);
    await link('used-long-ago', -1, 21);
    await link('expired-lately', 19);
    // A link the reader has not opened yet keeps working.
    await link('live', -1);

    expect(await identity.app.get(IdentityRetention).prune()).toMatchObject({ emailMessages: 2, emailTokens: 2 });
    const left = (await sql.query('SELECT subject FROM identity.email_messages WHERE publication_id = $1 ORDER BY subject', [publication])).rows.map((r) => r.subject);
    expect(left).toEqual(['old pending', 'recent sent']);
    const links = (await sql.query('SELECT token_hash FROM identity.email_tokens WHERE publication_id = $1 ORDER BY token_hash', [publication])).rows.map((r) => r.token_hash);
    expect(links).toEqual(['expired-lately', 'live']);
  });

  it('prunes staff sessions and invitations STAFF_SESSION_RETENTION_DAYS after they ended, the team change log after TEAM_CHANGES_RETENTION_DAYS and the audit log after AUDIT_LOG_RETENTION_DAYS', async () => {
    const publication = randomUUID();
    const staff = randomUUID();
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * DAY);
    await sql.query('INSERT INTO admin.publications (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)', [publication, 'Retention Times', ago(400)]);
    await sql.query(`INSERT INTO admin.staff (id, email, name, password_hash, created_at) VALUES ($1, $2, 'Staff', 'x', $3)`, [staff, `${staff}@example.com`, ago(400)]);
    const session = (name: string, createdDaysAgo: number, lastSeenDaysAgo: number, revokedDaysAgo: number | null = null) =>
      sql.query(
        `INSERT INTO admin.sessions (id, staff_id, token_hash, current_publication_id, created_at, last_seen_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [randomUUID(), staff, name, publication, ago(createdDaysAgo), ago(lastSeenDaysAgo), ago(createdDaysAgo - 7), revokedDaysAgo === null ? null : ago(revokedDaysAgo)],
      );
    await session('expired', 11, 4.5); // ended 4 days ago, at its 7-day limit
    await session('idle', 5, 4); // ended after 12 idle hours, 3.5 days ago
    await session('signed-out', 6, 5, 5);
    await session('ended-lately', 9, 2.1); // ended 2 days ago
    await sql.query(`INSERT INTO admin.memberships (staff_id, publication_id, role, created_at) VALUES ($1, $2, 'admin', $3)`, [staff, publication, ago(400)]);
    const liveToken = 'live-session-token';
    await session(sha256Hex(liveToken), 3, 0);
    const change = (subject: string, ageDays: number) =>
      sql.query(`INSERT INTO admin.team_changes (id, publication_id, action, actor_email, subject_email, role, created_at) VALUES ($1, $2, 'invited', 'owner@example.com', $3, 'viewer', $4)`, [
        randomUUID(),
        publication,
        subject,
        ago(ageDays),
      ]);
    await change('old@example.com', 101);
    await change('recent@example.com', 99);
    const audited = (path: string, ageDays: number) =>
      sql.query(
        `INSERT INTO admin.audit_entries (id, publication_id, staff_id, actor_email, actor_name, action, method, route, path, address, request_id, created_at)
         VALUES ($1, $2, $3, 'owner@example.com', 'Owner', 'PaywallsController_create', 'POST', '/api/v1/admin/paywalls', $4, '203.0.113.7', $5, $6)`,
        [randomUUID(), publication, staff, path, randomUUID(), ago(ageDays)],
      );
    await audited('/old', 201);
    await audited('/recent', 199);

    const invitation = (email: string, state: { expires: number; accepted?: number; revoked?: number }) =>
      sql.query(
        `INSERT INTO admin.invitations (id, publication_id, email, role, token_hash, invited_by, created_at, expires_at, accepted_at, revoked_at) VALUES ($1, $2, $3, 'viewer', $4, $5, $6, $7, $8, $9)`,
        [randomUUID(), publication, email, `hash-${email}`, staff, ago(state.expires + 7), ago(state.expires), state.accepted === undefined ? null : ago(state.accepted), state.revoked === undefined ? null : ago(state.revoked)],
      );
    await invitation('expired@example.com', { expires: 4 });
    await invitation('accepted@example.com', { expires: -3, accepted: 4 });
    await invitation('revoked@example.com', { expires: -3, revoked: 4 });
    await invitation('expired-lately@example.com', { expires: 2 });
    await invitation('pending@example.com', { expires: -3 });

    expect(await admin.app.get(AdminRetention).prune()).toEqual({ sessions: 3, teamChanges: 1, invitations: 3, auditEntries: 1, imports: 0 });
    const invitations = (await sql.query('SELECT email FROM admin.invitations WHERE publication_id = $1 ORDER BY email', [publication])).rows.map((r) => r.email);
    expect(invitations).toEqual(['expired-lately@example.com', 'pending@example.com']);
    const sessions = (await sql.query('SELECT token_hash FROM admin.sessions WHERE staff_id = $1 ORDER BY token_hash', [staff])).rows.map((r) => r.token_hash);
    expect(sessions).toEqual(['ended-lately', sha256Hex(liveToken)].sort());
    // The staff member signed in stays signed in.
    expect(await bus.request(AdminRequests.ResolveSession, { tokenHash: sha256Hex(liveToken) })).toMatchObject({ staffId: staff });
    const changes = (await sql.query('SELECT subject_email FROM admin.team_changes WHERE publication_id = $1', [publication])).rows.map((r) => r.subject_email);
    expect(changes).toEqual(['recent@example.com']);
    const audit = (await sql.query('SELECT path FROM admin.audit_entries WHERE publication_id = $1', [publication])).rows.map((r) => r.path);
    expect(audit).toEqual(['/recent']);
  });

  it("prunes processor events processed, erased accounts' ids and checkouts abandoned PROCESSOR_EVENT_RETENTION_DAYS ago, payment email records after 90 days, and keeps recent, unprocessed and completed ones", async () => {
    const now = Date.now();
    const event = (id: string, receivedDaysAgo: number, processedDaysAgo: number | null) =>
      sql.query(`INSERT INTO billing.processor_events (scope, event_id, type, payload, received_at, processed_at, outcome) VALUES ('environment', $1, 'customer.updated', '{}', $2, $3, $4)`, [
        id,
        new Date(now - receivedDaysAgo * DAY),
        processedDaysAgo === null ? null : new Date(now - processedDaysAgo * DAY),
        processedDaysAgo === null ? null : 'applied',
      ]);
    await event('evt_old', 16, 16);
    await event('evt_recent', 14, 14);
    await event('evt_unprocessed', 40, null);
    // The processor's ids of accounts erased customers had: kept as long as the processor may still send about them.
    for (const [id, daysAgo] of [['cus_erased_long_ago', 16], ['cus_erased_lately', 14]] as const) {
      await sql.query('INSERT INTO billing.erased_processor_customers (processor_customer_id, erased_at) VALUES ($1, $2)', [id, new Date(now - daysAgo * DAY)]);
    }

    const checkout = (id: string, startedDaysAgo: number, completed: boolean) =>
      sql.query(`INSERT INTO billing.checkout_sessions (publication_id, processor_session_id, customer_id, price_id, created_at, completed_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
        publicationId,
        id,
        randomUUID(),
        randomUUID(),
        new Date(now - startedDaysAgo * DAY),
        completed ? new Date(now - startedDaysAgo * DAY) : null,
      ]);
    await checkout('cs_abandoned', 16, false);
    await checkout('cs_abandoned_lately', 14, false);
    // A completed checkout is the record of a purchase (and of the experiment variant it converted).
    await checkout('cs_completed', 40, true);
    // Payment email records: kept 90 days, longer than an invoice's retries last, whatever the events' retention.
    for (const [id, daysAgo] of [['in_told_long_ago', 91], ['in_told_lately', 40]] as const) {
      await sql.query(`INSERT INTO billing.payment_notices (publication_id, subject_id, kind, customer_id, created_at) VALUES ($1, $2, 'payment_failed', $3, $4)`, [
        publicationId,
        id,
        randomUUID(),
        new Date(now - daysAgo * DAY),
      ]);
    }

    expect(await billing.app.get(BillingRetention).prune()).toEqual({ processorEvents: 1, erasedProcessorCustomers: 1, abandonedCheckouts: 1, paymentNotices: 1 });
    const notices = (await sql.query('SELECT subject_id FROM billing.payment_notices WHERE publication_id = $1', [publicationId])).rows;
    expect(notices).toEqual([{ subject_id: 'in_told_lately' }]);
    const left = (await sql.query('SELECT event_id FROM billing.processor_events ORDER BY event_id')).rows.map((r) => r.event_id);
    expect(left).toEqual(['evt_recent', 'evt_unprocessed']);
    const checkouts = (await sql.query('SELECT processor_session_id FROM billing.checkout_sessions WHERE publication_id = $1 ORDER BY 1', [publicationId])).rows.map((r) => r.processor_session_id);
    expect(checkouts).toEqual(['cs_abandoned_lately', 'cs_completed']);
    expect((await sql.query('SELECT processor_customer_id FROM billing.erased_processor_customers')).rows).toEqual([{ processor_customer_id: 'cus_erased_lately' }]);
  });

  it('prunes published outbox rows and handled event ids past EVENT_RETENTION_DAYS, and keeps recent ones', async () => {
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * DAY);
    const published = async (days: number) => {
      const id = randomUUID();
      await sql.query(`INSERT INTO billing.outbox (id, name, publication_id, data, occurred_at, published_at) VALUES ($1, 'retention.test', NULL, '{}', $2, $2)`, [id, ago(days)]);
      return id;
    };
    const old = await published(2.5);
    const recent = await published(1.5);
    const [oldHandled, recentHandled] = [randomUUID(), randomUUID()];
    await sql.query(`INSERT INTO billing.processed_events (consumer, event_id, processed_at) VALUES ('retention-test', $1, $2), ('retention-test', $3, $4)`, [
      oldHandled,
      ago(2.5),
      recentHandled,
      ago(1.5),
    ]);

    expect(await billing.app.get(EventRetention).prune()).toEqual({ outbox: 1, processed: 1 });
    expect(await count('SELECT count(*) FROM billing.outbox WHERE id = $1', [old])).toBe(0);
    expect(await count('SELECT count(*) FROM billing.outbox WHERE id = $1', [recent])).toBe(1);
    const handled = (await sql.query(`SELECT event_id FROM billing.processed_events WHERE consumer = 'retention-test'`)).rows.map((r) => r.event_id);
    expect(handled).toEqual([recentHandled]);
  });
});
