import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { DatabaseModule, openMigratedDatabase } from '@gatehouse/db';
import { ClockModule, ManualClock } from '@gatehouse/platform';
import { createTestDatabase, type TestDatabase } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { BUS_OPTIONS, InProcessHub } from '../../bus-options';
import { CreateBusTables1763700000000 } from '../bus-tables.migration';
import { EVENT_RETENTION_MS, EventRetention } from '../event-retention.service';
import { EventsModule } from '../events.module';

describe('event retention', () => {
  // Today: the relay publishes the unpublished row at the database's own time, which must not read as past its age.
  const clock = new ManualClock(new Date());
  let db: TestDatabase;
  let dataSource: DataSource;
  let app: INestApplicationContext;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await openMigratedDatabase({ url: db.url, schema: 'retention', entities: [], migrations: [CreateBusTables1763700000000] });
    const options = { service: 'identity' as const, namespace: 'retention', transport: { kind: 'in-process' as const, hub: new InProcessHub() } };
    @Module({ providers: [{ provide: BUS_OPTIONS, useValue: options }], exports: [BUS_OPTIONS] })
    class Options {}
    app = await NestFactory.createApplicationContext(
      { module: class Root {}, imports: [ClockModule.forRoot(clock), DatabaseModule.forDataSource(dataSource), { module: Options, global: true }, EventsModule.forRoot()] },
      { logger: false },
    );
  });

  afterAll(async () => {
    await app?.close();
    await dataSource?.destroy();
    await db?.drop();
  });

  const ago = (ms: number) => new Date(clock.now().getTime() - ms);

  it('deletes published outbox rows and handled ids past the retention period, and keeps the rest', async () => {
    const old = ago(EVENT_RETENTION_MS + 60_000);
    const recent = ago(EVENT_RETENTION_MS - 60_000);
    const insertOutbox = (publishedAt: Date | null) =>
      dataSource.query(`INSERT INTO outbox (id, name, publication_id, data, occurred_at, published_at) VALUES ($1, 'x.y', NULL, '{}', $2, $3) RETURNING id`, [
        randomUUID(),
        old,
        publishedAt,
      ]);
    const [[oldPublished], [recentPublished], [neverPublished]] = await Promise.all([insertOutbox(old), insertOutbox(recent), insertOutbox(null)]);
    await dataSource.query('INSERT INTO processed_events (consumer, event_id, processed_at) VALUES ($1, $2, $3), ($1, $4, $5)', [
      'c',
      randomUUID(),
      old,
      randomUUID(),
      recent,
    ]);

    await expect(app.get(EventRetention).prune()).resolves.toEqual({ outbox: 1, processed: 1 });

    const outbox: Array<{ id: string }> = await dataSource.query('SELECT id FROM outbox ORDER BY id');
    expect(outbox.map((r) => r.id).sort()).toEqual([recentPublished.id, neverPublished.id].sort());
    expect(outbox.map((r) => r.id)).not.toContain(oldPublished.id);
    const processed: Array<{ processed_at: Date }> = await dataSource.query('SELECT processed_at FROM processed_events');
    expect(processed.map((r) => r.processed_at.toISOString())).toEqual([recent.toISOString()]);
  });

  it('runs on one replica at a time: a round while another holds the job is skipped, and the next deletes every past-age row', async () => {
    const old = ago(EVENT_RETENTION_MS + 60_000);
    await dataSource.query(
      `INSERT INTO outbox (id, name, publication_id, data, occurred_at, published_at) SELECT gen_random_uuid(), 'x.y', NULL, '{}', $1, $1 FROM generate_series(1, 2500)`,
      [old],
    );
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock(hashtext($1))', ['retention:events:identity']);
      await expect(app.get(EventRetention).prune()).resolves.toBeUndefined();
      expect(await outboxBefore(old)).toBe(2500);
      await other.query('SELECT pg_advisory_unlock(hashtext($1))', ['retention:events:identity']);
    } finally {
      await other.end();
    }
    // More than one batch's worth.
    await expect(app.get(EventRetention).prune()).resolves.toEqual({ outbox: 2500, processed: 0 });
    expect(await outboxBefore(old)).toBe(0);
  });

  const outboxBefore = async (at: Date) => Number(((await dataSource.query('SELECT count(*) FROM outbox WHERE published_at <= $1', [at])) as Array<{ count: string }>)[0].count);
});
