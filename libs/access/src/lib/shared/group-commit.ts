import type { DataSource, EntityManager } from 'typeorm';

type Work<T> = (manager: EntityManager) => Promise<T>;

/**
 * One statement doing the work of many callers: answers one output per input, in their order.
 * Inputs under the same lock are never given to it together (each sees the ones before it).
 */
export type SharedStatement<I, O> = (manager: EntityManager, inputs: I[]) => Promise<O[]>;

interface Queued {
  statement: SharedStatement<unknown, unknown>;
  input: unknown;
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

/** A work of its own is a statement for one input. */
const alone = <T>(work: Work<T>): SharedStatement<undefined, T> => async (manager) => [await work(manager)];

/**
 * Group commit: durable writes that arrive while a transaction is committing wait for it, then
 * all run in the next transaction, one commit (one fsync) for all of them. Its first statement
 * takes every advisory lock they need; works that share a statement (`together`) run as one
 * statement per round, a round holding at most one input per lock. Each caller's promise resolves
 * only once its work committed. When a shared transaction fails (a deadlock with another replica,
 * a constraint), every work of it runs again in a transaction of its own, so one failing work
 * fails alone.
 */
export class GroupCommit {
  private queue: Queued[] = [];
  private draining = false;

  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in the next shared transaction, with the advisory lock `lock` held when it starts. */
  run<T>(work: Work<T>, lock?: string): Promise<T> {
    return this.together(alone(work), undefined, lock);
  }

  /** Runs `input` through `statement` in the next shared transaction, in one statement with the other inputs of that transaction. */
  together<I, O>(statement: SharedStatement<I, O>, input: I, lock?: string): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ statement: statement as SharedStatement<unknown, unknown>, input, lock, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      let results: unknown[];
      try {
        results = await this.dataSource.transaction((manager) => this.runAll(manager, batch));
      } catch (err) {
        if (batch.length === 1) batch[0].reject(err);
        else await Promise.all(batch.map((item) => this.dataSource.transaction((manager) => this.runAll(manager, [item])).then(([result]) => item.resolve(result), item.reject)));
        continue;
      }
      batch.forEach((item, i) => item.resolve(results[i]));
    }
    this.draining = false;
  }

  private async runAll(manager: EntityManager, batch: Queued[]): Promise<unknown[]> {
    await lockAll(manager, batch.flatMap((item) => (item.lock === undefined ? [] : [item.lock])));
    const results: unknown[] = new Array(batch.length);
    const byStatement = new Map<SharedStatement<unknown, unknown>, number[]>();
    batch.forEach((item, i) => {
      const indices = byStatement.get(item.statement);
      if (indices) indices.push(i);
      else byStatement.set(item.statement, [i]);
    });
    for (const [statement, indices] of byStatement) {
      for (let pending = indices; pending.length > 0; ) {
        const locks = new Set<string>();
        const round: number[] = [];
        const later: number[] = [];
        for (const i of pending) {
          const lock = batch[i].lock;
          if (lock !== undefined && locks.has(lock)) later.push(i);
          else {
            if (lock !== undefined) locks.add(lock);
            round.push(i);
          }
        }
        const outputs = await statement(manager, round.map((i) => batch[i].input));
        round.forEach((i, j) => (results[i] = outputs[j]));
        pending = later;
      }
    }
    return results;
  }
}
