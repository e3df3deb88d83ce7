import type { DataSource, EntityManager } from 'typeorm';

type Work<T> = (manager: EntityManager) => Promise<T>;

interface Queued {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Works per transaction, so one slow batch does not hold locks for long. */
const MAX_BATCH = 200;

/**
 * Group commit: durable writes that arrive while a transaction is committing wait for it, then
 * all run in the next transaction, one commit (one fsync) for all of them. Each caller's promise
 * resolves only once its work committed. When a shared transaction fails (a deadlock with another
 * replica, a constraint), every work of it runs again in a transaction of its own, so one failing
 * work fails alone.
 */
export class GroupCommit {
  private queue: Queued[] = [];
  private draining = false;

  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
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
          const done: unknown[] = [];
          for (const item of batch) done.push(await item.work(manager));
          return done;
        });
      } catch (err) {
        if (batch.length === 1) batch[0].reject(err);
        else await Promise.all(batch.map((item) => this.dataSource.transaction(item.work).then(item.resolve, item.reject)));
        continue;
      }
      batch.forEach((item, i) => item.resolve(results[i]));
    }
    this.draining = false;
  }
}
