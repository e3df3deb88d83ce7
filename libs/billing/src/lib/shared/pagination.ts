import { BILLING_PAGE_DEFAULT_LIMIT, BILLING_PAGE_MAX_LIMIT, type BillingPage, type PageRequest } from '@gatehouse/contracts';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { AppError } from '@gatehouse/platform';

interface PageRow extends ObjectLiteral {
  id: string;
  createdAt: Date;
}

/**
 * One page of a list, newest first (decisions H2). The cursor is the position of the last row
 * shown, (created_at, id), so rows added meanwhile neither repeat nor shift the next page.
 */
export async function pageOf<T extends PageRow, V>(
  query: SelectQueryBuilder<T>,
  request: PageRequest,
  view: (row: T) => V,
): Promise<BillingPage<V>> {
  const limit = pageLimit(request.limit);
  const alias = query.alias;
  if (request.cursor !== undefined) {
    const { createdAt, id } = decodeCursor(request.cursor);
    query.andWhere(`(${alias}.created_at, ${alias}.id) < (:cursorAt, :cursorId)`, { cursorAt: createdAt, cursorId: id });
  }
  const rows = await query.orderBy(`${alias}.created_at`, 'DESC').addOrderBy(`${alias}.id`, 'DESC').take(limit + 1).getMany();
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items: items.map(view), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return BILLING_PAGE_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > BILLING_PAGE_MAX_LIMIT) {
    throw AppError.invalid('limit', `must be a whole number from 1 to ${BILLING_PAGE_MAX_LIMIT}`);
  }
  return limit;
}

function encodeCursor(row: PageRow): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    const createdAt = new Date(String(at));
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(createdAt.getTime()) && /^[0-9a-f-]{36}$/.test(id)) {
      return { createdAt, id };
    }
  } catch {
    // falls through to the refusal below
  }
  throw AppError.invalid('cursor', 'is not a cursor this service issued');
}
