import type { EntityManager } from 'typeorm';

/** Rows per statement, within PostgreSQL's 65,535 parameters. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * Inserts rows, each its values in the columns' order, a thousand to a statement:
 * `INSERT INTO <into> VALUES (…), (…) <then>` (`then`: the ON CONFLICT clause).
 */
export async function insertRows(manager: EntityManager, into: string, rows: readonly unknown[][], then: string): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    let parameter = 0;
    const values = chunk.map((row) => `(${row.map(() => `$${++parameter}`).join(', ')})`).join(', ');
    await manager.query(`INSERT INTO ${into} VALUES ${values} ${then}`, chunk.flat());
  }
}

/**
 * A map's rows in the order of its keys (each key naming its row's conflict target): writers that
 * add to the same rows, each in this one order, cannot deadlock.
 */
export function inKeyOrder<T>(rows: ReadonlyMap<string, T>): T[] {
  return [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
