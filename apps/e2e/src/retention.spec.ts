import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { AccessConfig, AccessRetention, accessService } from '@gatehouse/access';
import { startService, type RunningService } from '@gatehouse/runtime';
import { loadConfig } from '@gatehouse/platform';
import { createTestDatabase, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { DeliveryRetention, webhooksOutService } from '@gatehouse/webhooks-out';
import { SteerableClock } from './support/billing';

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
  let sql: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { LOG_LEVEL: 'silent', NATS_URL: testNatsUrl(), DATABASE_URL: db.url, BUS_NAMESPACE: namespace };
    const transport = { kind: 'nats' as const, servers: [testNatsUrl()] };
    [access, webhooksOut] = await Promise.all([
      startService(accessService, { config: loadConfig(AccessConfig, env), transport, databaseUrl: db.url, clock, migrate: true }),
      startService(webhooksOutService, { config: loadConfig(webhooksOutService.config, env), transport, databaseUrl: db.url, clock, migrate: true }),
    ]);
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await access?.close();
    await webhooksOut?.close();
    await db?.drop();
  });

  const count = async (query: string, params: unknown[] = []) => Number((await sql.query(query, params)).rows[0].count);

  it('prunes meter views, idle visits and old hourly figures of access past their age, and keeps the rest', async () => {
    const paywallId = randomUUID();
    const written = Date.now();
    const view = (at: number, reader: string) =>
      sql.query('INSERT INTO access.meter_views (publication_id, paywall_id, reader_key, page, viewed_at) VALUES ($1, $2, $3, $4, $5)', [publicationId, paywallId, reader, '/a', new Date(at)]);
    const visit = (at: number, reader: string) =>
      sql.query('INSERT INTO access.visits (publication_id, reader_key, count, last_visit_at) VALUES ($1, $2, 3, $3)', [publicationId, reader, new Date(at)]);
    const hourly = (at: Date, shown: number) =>
      sql.query('INSERT INTO access.hourly_stats (publication_id, hour, paywall_id, shown, checks_granted) VALUES ($1, $2, $3, $4, 1)', [publicationId, at, paywallId, shown]);

    // Written today.
    await view(written, 'old-reader');
    await visit(written, 'idle-reader');
    const oldDay = new Date(Math.floor(written / DAY) * DAY - DAY);
    for (const [hour, shown] of [[0, 1], [5, 2], [17, 4]]) await hourly(new Date(oldDay.getTime() + hour * HOUR), shown);

    clock.advance(100 * DAY);
    const now = clock.now().getTime();
    // Written under the moved clock, within their ages.
    await view(now, 'current-reader');
    await visit(now - 89 * DAY, 'recent-reader');
    const recentDay = new Date(Math.floor((now - 80 * DAY) / DAY) * DAY);
    await hourly(new Date(recentDay.getTime() + 3 * HOUR), 7);
    await hourly(new Date(recentDay.getTime() + 9 * HOUR), 8);

    const pruned = await access.app.get(AccessRetention).prune();
    expect(pruned).toEqual({ meterViews: 1, visits: 1, hoursCompacted: 2 });

    expect((await sql.query('SELECT reader_key FROM access.meter_views')).rows).toEqual([{ reader_key: 'current-reader' }]);
    expect((await sql.query('SELECT reader_key FROM access.visits')).rows).toEqual([{ reader_key: 'recent-reader' }]);
    // The old day is one row with the day's sums; the recent hours are untouched.
    const stats = (await sql.query('SELECT hour, shown, checks_granted FROM access.hourly_stats ORDER BY hour')).rows;
    expect(stats).toEqual([
      { hour: oldDay, shown: '7', checks_granted: '3' },
      { hour: new Date(recentDay.getTime() + 3 * HOUR), shown: '7', checks_granted: '1' },
      { hour: new Date(recentDay.getTime() + 9 * HOUR), shown: '8', checks_granted: '1' },
    ]);
    // A second round finds nothing more to do.
    expect(await access.app.get(AccessRetention).prune()).toEqual({ meterViews: 0, visits: 0, hoursCompacted: 0 });
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
});
