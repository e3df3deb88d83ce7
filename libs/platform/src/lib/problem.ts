import type { ErrorCode, FieldError, ProblemDetails } from '@gatehouse/contracts';

/** Status and title of every code (decisions B2): the one place a code is mapped to HTTP. */
const CODES: Record<ErrorCode, { status: number; title: string }> = {
  validation_failed: { status: 400, title: 'Validation failed' },
  signature_invalid: { status: 400, title: 'Signature invalid' },
  api_key_missing: { status: 401, title: 'API key missing' },
  api_key_invalid: { status: 401, title: 'API key invalid' },
  invalid_credentials: { status: 401, title: 'Invalid credentials' },
  refresh_token_invalid: { status: 401, title: 'Refresh token invalid' },
  email_token_invalid: { status: 401, title: 'Email link invalid' },
  code_invalid: { status: 401, title: 'Code invalid' },
  token_invalid: { status: 401, title: 'Token invalid' },
  token_expired: { status: 401, title: 'Token expired' },
  customer_token_required: { status: 401, title: 'Customer token required' },
  session_required: { status: 401, title: 'Session required' },
  api_key_wrong_kind: { status: 403, title: 'Wrong kind of API key' },
  url_not_in_publication: { status: 403, title: 'URL not in publication' },
  forbidden: { status: 403, title: 'Forbidden' },
  csrf_failed: { status: 403, title: 'CSRF check failed' },
  registration_closed: { status: 403, title: 'Registration closed' },
  not_found: { status: 404, title: 'Not found' },
  email_taken: { status: 409, title: 'Email taken' },
  conflict: { status: 409, title: 'Conflict' },
  offer_not_applicable: { status: 409, title: 'Offer not applicable' },
  share_not_subscriber: { status: 403, title: 'Only subscribers can share' },
  sharing_disabled: { status: 403, title: 'Sharing is turned off' },
  share_allowance_exceeded: { status: 429, title: 'Share allowance used up' },
  offer_expired: { status: 410, title: 'Offer expired' },
  offer_exhausted: { status: 410, title: 'Offer used up' },
  gift_voided: { status: 410, title: 'Gift voided' },
  gift_redeemed: { status: 409, title: 'Gift already redeemed' },
  organisation_full: { status: 409, title: 'Organisation full' },
  invitation_invalid: { status: 410, title: 'Invitation invalid' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  request_timeout: { status: 408, title: 'Request timeout' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  rate_limited: { status: 429, title: 'Too many requests' },
  processor_error: { status: 502, title: 'Payment processor error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  internal_error: { status: 500, title: 'Internal error' },
};

const TYPE_BASE = 'https://gatehouse.dev/problems/';

export function statusOf(code: ErrorCode): number {
  return CODES[code].status;
}

/** Builds the RFC 9457 body for a code. */
export function problem(code: ErrorCode, detail?: string, errors?: FieldError[]): ProblemDetails {
  const { status, title } = CODES[code];
  return {
    type: TYPE_BASE + code.replace(/_/g, '-'),
    title,
    status,
    detail: detail ?? title,
    code,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

export function isProblem(value: unknown): value is ProblemDetails {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['code'] === 'string' && v['code'] in CODES && typeof v['status'] === 'number';
}

/**
 * The one exception every module throws: a stable code plus a message safe to show the caller.
 * Filters turn it into problem details over HTTP and over the bus.
 */
export class AppError extends Error {
  readonly problem: ProblemDetails;

  constructor(code: ErrorCode, detail?: string, errors?: FieldError[]) {
    super(detail ?? CODES[code].title);
    this.name = 'AppError';
    this.problem = problem(code, detail, errors);
  }

  get code(): ErrorCode {
    return this.problem.code;
  }

  get status(): number {
    return this.problem.status;
  }

  /** 400 validation_failed naming one field, as the gateway's own validation answers. */
  static invalid(field: string, message: string): AppError {
    return new AppError('validation_failed', 'The request is invalid.', [{ field, message }]);
  }

  static fromProblem(p: ProblemDetails): AppError {
    const error = new AppError(p.code, p.detail, p.errors);
    if (typeof p.retryAfter === 'number') error.problem.retryAfter = p.retryAfter;
    return error;
  }

  /** A refusal the caller may retry after `seconds` (429, 503): the answer carries `Retry-After`. */
  static retryLater(code: 'rate_limited' | 'service_unavailable' | 'share_allowance_exceeded', detail: string, seconds: number): AppError {
    const error = new AppError(code, detail);
    error.problem.retryAfter = Math.max(1, Math.ceil(seconds));
    return error;
  }
}

/** Maps a bare HTTP status (from the framework or Fastify) to our code. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'validation_failed';
    case 401:
      return 'api_key_invalid';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 502:
      return 'processor_error';
    case 503:
    case 504:
      return 'service_unavailable';
    default:
      return status >= 400 && status < 500 ? 'validation_failed' : 'internal_error';
  }
}
