/** Stable error codes clients branch on (decisions B2). */
export const ERROR_CODES = [
  'validation_failed',
  'signature_invalid',
  'api_key_missing',
  'api_key_invalid',
  'invalid_credentials',
  'refresh_token_invalid',
  'email_token_invalid',
  'code_invalid',
  'token_invalid',
  'token_expired',
  'customer_token_required',
  'session_required',
  'api_key_wrong_kind',
  'url_not_in_publication',
  'forbidden',
  'csrf_failed',
  'registration_closed',
  'not_found',
  'email_taken',
  'conflict',
  'offer_not_applicable',
  'share_not_subscriber',
  'sharing_disabled',
  'share_allowance_exceeded',
  'offer_expired',
  'offer_exhausted',
  'gift_voided',
  'gift_redeemed',
  'organisation_full',
  'invitation_invalid',
  'precondition_failed',
  'request_timeout',
  'payload_too_large',
  'headers_too_large',
  'unsupported_media_type',
  'rate_limited',
  'processor_error',
  'service_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  field: string;
  message: string;
}

/** RFC 9457 problem details, the body of every error response and every failed bus request. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
  /** Seconds until a retry can succeed (429, 503); also sent as the `Retry-After` header. */
  retryAfter?: number;
}
