import { ValidateBy, type ValidationOptions } from 'class-validator';

/** RFC 3339 as clients write it: a date, or a date and time with its offset. No week or ordinal dates. */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/**
 * The instant a timestamp names, or undefined when it names none: `2020-02-30` and `2020-W01` are
 * refused here rather than rolled over by `Date` or thrown from `toISOString()` later.
 */
export function parseTimestamp(text: unknown): Date | undefined {
  if (typeof text !== 'string' || text.length > 40) return undefined;
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return undefined;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return undefined;
  const time = Date.parse(text);
  return Number.isFinite(time) ? new Date(time) : undefined;
}

/** A property that parseTimestamp accepts. */
export function IsTimestamp(options: ValidationOptions = {}): PropertyDecorator {
  return ValidateBy(
    { name: 'isTimestamp', validator: { validate: (value) => parseTimestamp(value) !== undefined, defaultMessage: () => 'must be an ISO 8601 date or date-time with offset, e.g. 2026-01-31T12:00:00Z' } },
    options,
  );
}
