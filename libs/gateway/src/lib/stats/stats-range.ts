import { AppError } from '@gatehouse/platform';

export const DAY_MS = 24 * 3600_000;

/**
 * A stats query's range as ISO times: `to` (default now) and `from` (default `defaultMs` before
 * it); 400 naming `from` when it is not before `to`, naming `to` past `maxMs` (`per`: the bucket
 * the limit is for, in its message).
 */
export function statsRange(query: { from?: string; to?: string }, defaultMs: number, maxMs: number, per = ''): { from: string; to: string } {
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - defaultMs);
  if (from >= to) throw AppError.invalid('from', 'must be before to');
  if (to.getTime() - from.getTime() > maxMs) throw AppError.invalid('to', `the range may span at most ${maxMs / DAY_MS} days${per}`);
  return { from: from.toISOString(), to: to.toISOString() };
}
