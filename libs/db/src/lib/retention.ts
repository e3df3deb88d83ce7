import type { Clock } from '@gatehouse/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { PeriodicSweep } from './periodic-sweep';

/** A data source, or a transaction's entity manager. */
export type Queryable = Pick<DataSource | EntityManager, 'query'>;

/**
 * Deletes the rows of `table` matching `where`, `batchSize` at a time, each batch its own short
 * statement that skips rows a writer holds: old rows go without ever locking a hot table or
 * waiting on its writers. Resolves with how many rows went.
 */
export async function deleteInBatches(connection: Queryable, table: string, where: string, params: unknown[], batchSize = 1_000): Promise<number> {
  let total = 0;
  for (;;) {
    const [, deleted] = (await connection.query(
      `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${where} LIMIT ${batchSize} FOR UPDATE SKIP LOCKED))`,
      params,
    )) as [unknown, number];
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/**
 * Runs `work` unless another process holds the job `name` (a session advisory lock, not waited
 * for): one replica at a time runs a periodic job, the others skip that round. Undefined when skipped.
 */
export async function runExclusively<T>(dataSource: DataSource, name: string, work: () => Promise<T>): Promise<T | undefined> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [name])) as Array<{ locked: boolean }>;
    if (!locked) return undefined;
    try {
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  } finally {
    await runner.release();
  }
}

const RETENTION_EVERY_MS = 3600_000;
const DAY_MS = 24 * 3600_000;

/**
 * A service's retention: `round` deletes what is past its age (with deleteInBatches), hourly and by
 * one replica at a time (runExclusively under `retention:<job>`); a failed round is logged and the
 * next one tries again. `prune()` runs one round now: undefined when another replica holds it.
 */
export abstract class RetentionJob<T> extends PeriodicSweep {
  protected constructor(
    protected readonly dataSource: DataSource,
    private readonly clock: Clock,
    /** Names the lock and the log line: what is pruned. */
    private readonly job: string,
  ) {
    super(RETENTION_EVERY_MS, `Pruning ${job}`);
  }

  /** Deletes what is past its age at `now`; answers what went. */
  protected abstract round(now: Date): Promise<T>;

  sweep(): Promise<T | undefined> {
    return this.prune();
  }

  prune(): Promise<T | undefined> {
    return runExclusively(this.dataSource, `retention:${this.job}`, () => this.round(this.clock.now()));
  }
}

/** The moment `days` before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}
