import { InProcessHub, ReadModels } from '@gatehouse/bus';
import { openMigratedDatabase } from '@gatehouse/db';
import { createTestDatabase, eventually, type TestDatabase } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { readerOf } from '../reader';
import { VisitCounter } from '../visit-counter.service';

const SCHEMA = 'visit_counter';

describe('visit counts', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let readModels: ReadModels;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await openMigratedDatabase({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
    await dataSource.query(
      'CREATE TABLE visits (publication_id uuid NOT NULL, reader_key text NOT NULL, count bigint NOT NULL, last_visit_at timestamptz NOT NULL, PRIMARY KEY (publication_id, reader_key))',
    );
    readModels = new ReadModels(new InProcessHub().events);
    await readModels.onModuleInit();
  });

  afterAll(async () => {
    await readModels?.onModuleDestroy();
    await dataSource?.destroy();
    await db?.drop();
  });

  it('counts every visit once while a flush is writing them, and after', async () => {
    const counter = new VisitCounter(dataSource, readModels);
    const publicationId = randomUUID();
    const reader = readerOf(publicationId, null, 'regular');
    const now = new Date();
    for (let visit = 0; visit < 3; visit++) counter.add(reader, now);
    expect(await counter.total(reader)).toBe(3);
    await counter.onApplicationShutdown();
    expect(await counter.total(reader)).toBe(3);

    // Another transaction holds the reader's row, so the next flush waits in the middle of its write.
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT count FROM ${SCHEMA}.visits WHERE publication_id = $1 FOR UPDATE`, [publicationId]);
      counter.add(reader, now);
      const flushing = counter.onApplicationShutdown();
      await eventually(async () => {
        const [{ waiting }] = (await holder.query(`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO visits%'`)).rows;
        return waiting === 1 ? true : undefined;
      });
      counter.add(reader, now);
      expect(await counter.total(reader)).toBe(5);
      await holder.query('COMMIT');
      await flushing;
    } finally {
      await holder.end();
    }
    expect(await counter.total(reader)).toBe(5);
    await counter.onApplicationShutdown();
    expect(Number((await dataSource.query('SELECT count FROM visits WHERE publication_id = $1', [publicationId]))[0].count)).toBe(5);
    expect(await counter.total(reader)).toBe(5);
  });
});
