import type { ErrorCode, FieldError, ProblemDetails } from '@gatehouse/contracts';

/** The codes of the API's problem details, and `not_initialized` for a call made before `init`. */
export type GatehouseErrorCode = ErrorCode | 'not_initialized';

/**
 * Every failure the SDK reports: the API's problem details (`code`, `status`, `detail`), or, when
 * the service could not be reached at all, `service_unavailable` with status 0.
 */
export class GatehouseError extends Error {
  readonly code: GatehouseErrorCode;
  readonly status: number;
  readonly detail: string;
  readonly errors?: FieldError[];
  /** From `Retry-After` on a 429 or 503. */
  retryAfterMs?: number;

  constructor(code: GatehouseErrorCode, status: number, detail: string, errors?: FieldError[]) {
    super(`${code}: ${detail}`);
    this.name = 'GatehouseError';
    this.code = code;
    this.status = status;
    this.detail = detail;
    if (errors) this.errors = errors;
  }

  static fromProblem(status: number, body: Partial<ProblemDetails> | undefined): GatehouseError {
    const code = body && typeof body.code === 'string' ? body.code : status >= 500 ? 'service_unavailable' : 'internal_error';
    return new GatehouseError(code, status, (body && body.detail) || `The service answered ${status}.`, body && body.errors);
  }
}

/** The service could not be reached, or failed on its side: what `failMode` and the event retries are for. */
export function isUnavailable(error: unknown): boolean {
  return error instanceof GatehouseError && (error.status === 0 || error.status >= 500);
}
