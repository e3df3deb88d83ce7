import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, type Page, type PageRequest } from '@gatehouse/contracts';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { AppError, isUuid, parseTimestamp } from '@gatehouse/platform';

type KeyType = 'integer' | 'timestamptz' | 'uuid';
type KeyValue = string | number;

/** How a list is ordered: keyset pagination, so pages stay right while rows are added or removed. */
export interface Keyset<E> {
  /** Columns qualified by the query's alias, in sort order; together they are unique. */
  columns: Array<{ column: string; type: KeyType }>;
  direction: 'ASC' | 'DESC';
  /** A row's values of those columns, which its cursor carries. */
  valuesOf(row: E): KeyValue[];
}

const ACCEPTS: Record<KeyType, (value: unknown) => boolean> = {
  integer: (value) => Number.isSafeInteger(value),
  timestamptz: (value) => parseTimestamp(value) !== undefined,
  uuid: isUuid,
};

/** One page of `query` (decisions H2); a cursor this list did not hand out is a 400 naming `cursor`. */
export async function pageOf<E extends ObjectLiteral, V>(
  query: SelectQueryBuilder<E>,
  keyset: Keyset<E>,
  request: PageRequest,
  view: (row: E) => V,
): Promise<Page<V>> {
  const limit = Math.min(Math.max(Math.trunc(request.limit ?? PAGE_SIZE_DEFAULT), 1), PAGE_SIZE_MAX);
  if (request.cursor !== undefined) {
    const after = decodeCursor(request.cursor, keyset);
    const columns = keyset.columns.map(({ column }) => column).join(', ');
    const placeholders = keyset.columns.map(({ type }, i) => `CAST(:cursor${i} AS ${type})`).join(', ');
    const comparison = keyset.direction === 'ASC' ? '>' : '<';
    query.andWhere(`(${columns}) ${comparison} (${placeholders})`, Object.fromEntries(after.map((value, i) => [`cursor${i}`, value])));
  }
  for (const { column } of keyset.columns) query.addOrderBy(column, keyset.direction);
  const rows = await query.limit(limit + 1).getMany();
  const items = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(keyset.valuesOf(items[items.length - 1])) : null;
  return { items: items.map(view), nextCursor };
}

function encodeCursor(values: KeyValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

function decodeCursor<E>(cursor: string, keyset: Keyset<E>): KeyValue[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    values = undefined;
  }
  const valid =
    Array.isArray(values) && values.length === keyset.columns.length && keyset.columns.every(({ type }, i) => ACCEPTS[type](values[i]));
  if (!valid) throw AppError.invalid('cursor', 'is not a cursor of this list');
  return values as KeyValue[];
}

/** The usual order of a list: newest first, by `created_at` then `id` of the query's main alias. */
export function newestFirst<E extends { id: string; createdAt: Date }>(alias: string): Keyset<E> {
  return {
    columns: [
      { column: `${alias}.created_at`, type: 'timestamptz' },
      { column: `${alias}.id`, type: 'uuid' },
    ],
    direction: 'DESC',
    valuesOf: (row) => [row.createdAt.toISOString(), row.id],
  };
}
