const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids arrive from URL paths and over the bus: anything that is not a UUID names no row, and must not reach a uuid column. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
