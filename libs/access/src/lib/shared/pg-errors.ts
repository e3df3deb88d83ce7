export const FOREIGN_KEY_VIOLATION = '23503';
export const UNIQUE_VIOLATION = '23505';

/** The SQLSTATE of a failed query, as TypeORM passes on the driver's error. */
export function pgErrorCode(err: unknown): string | undefined {
  const error = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = error?.driverError?.code ?? error?.code;
  return typeof code === 'string' ? code : undefined;
}
