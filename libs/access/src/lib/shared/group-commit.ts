import type { DataSource, EntityManager } from 'typeorm';

type Work<T> = (manager: EntityManager) => Promise<T>;

interface Queued {
  work: Work<unknown>;
  /** The advisory lock the work needs held before it reads. */
  lock?: string;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Works per transaction, so one slow batch does not hold locks for long. */
const MAX_BATCH = 200;

/**
 * Takes the transaction-scoped advisory locks `keys` in one statement, in a fixed order (so two
 * transactions taking overlapping sets do not deadlock), before any of the works reads.
 */
async function lockAll(manager: EntityManager, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await manager.query('SELECT pg_advisory_xact_lock(key) FROM (SELECT DISTINCT hashtext(k) AS key FROM unnest($1::text[]) AS k ORDER BY 1) AS keys', [keys]);
}

/**
 * Group commit: durable writes that arrive while a transaction is committing wait for it, then
 * all run in the next transaction, one commit (one fsync) for all of them, and the advisory locks
 * they need are taken together by its first statement. Each caller's promise resolves only once
 * its work committed. When a shared transaction fails (a deadlock with another replica, a
 * constraint), every work of it runs again in a transaction of its own, so one failing work fails
 * alone.
 */
export class GroupCommit {
  private queue: Queued[] = [];
  private draining = false;

  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in the next shared transaction, with the advisory lock `lock` held when it starts. */
  run<T>(work: Work<T>, lock?: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, lock, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      let results: unknown[];
      try {
        results = await this.dataSource.transaction(async (manager) => {
          await lockAll(manager, batch.flatMap((item) => (item.lock === undefined ? [] : [item.lock])));
          const done: unknown[] = [];
          for (const item of batch) done.push(await item.work(manager));
          return done;
        });
      } catch (err) {
        if (batch.length === 1) batch[0].reject(err);
        else await Promise.all(batch.map((item) => this.alone(item).then(item.resolve, item.reject)));
        continue;
      }
      batch.forEach((item, i) => item.resolve(results[i]));
    }
    this.draining = false;
  }

  private alone(item: Queued): Promise<unknown> {
    return this.dataSource.transaction(async (manager) => {
      await lockAll(manager, item.lock === undefined ? [] : [item.lock]);
      return item.work(manager);
    });
  }
}
