/** PostgreSQL's SQLSTATEs of a server that is going away, starting up, full, or unreachable. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006', '3D000']);
const UNAVAILABLE_SYSCALLS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Connection ended unexpectedly|terminating connection|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * Whether an error means the database is away (a restart, a failover, the network) rather than
 * that the request was wrong: such a request is answered 503 service_unavailable, worth retrying.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current: unknown = err; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    const { code, message, driverError } = current as { code?: unknown; message?: unknown; driverError?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SYSCALLS.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    if (driverError && isDatabaseUnavailable(driverError)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
