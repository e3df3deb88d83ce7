import { AppError } from '@gatehouse/platform';

/** 400 validation_failed naming the field, as the gateway's own validation answers. */
export function invalid(field: string, message: string): AppError {
  return new AppError('validation_failed', 'The request is invalid.', [{ field, message }]);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come over the bus from callers: anything that is not a UUID names no row, and must not reach a uuid column. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
