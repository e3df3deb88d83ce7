import type { DataSource } from 'typeorm';

/**
 * Deletes the rows of `table` matching `where`, `batchSize` at a time, each batch its own short
 * statement that skips rows a writer holds: old rows go without ever locking a hot table or
 * waiting on its writers. Resolves with how many rows went.
 */
export async function deleteInBatches(dataSource: DataSource, table: string, where: string, params: unknown[], batchSize = 1_000): Promise<number> {
  let total = 0;
  for (;;) {
    const [, deleted] = (await dataSource.query(
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

/** Runs `round` every `intervalMs` without keeping the process alive, reporting failures; returns the stop. */
export function repeatEvery(intervalMs: number, round: () => Promise<unknown>, onError: (err: unknown) => void): () => void {
  const timer = setInterval(() => void round().catch(onError), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
