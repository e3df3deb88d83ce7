import type { ErrorCode, FieldError, ProblemDetails } from '@gatehouse/contracts';

/** The API answered with an error: its RFC 9457 problem details, as sent. */
export class GatehouseApiError extends Error {
  readonly status: number;
  /** Stable: branch on it (decisions B2). */
  readonly code: ErrorCode;
  readonly errors: FieldError[];
  /** `X-Request-Id` of the failed request: quote it when asking for help. */
  readonly requestId: string | null;

  constructor(
    readonly problem: ProblemDetails,
    requestId: string | null,
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'GatehouseApiError';
    this.status = problem.status;
    this.code = problem.code;
    this.errors = problem.errors ?? [];
    this.requestId = requestId;
  }
}

/** No answer: the connection failed or the request timed out (after every retry). */
export class GatehouseConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatehouseConnectionError';
  }
}

/** A webhook delivery that is not authentic, or too old to trust. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}
