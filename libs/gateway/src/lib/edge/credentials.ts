import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { AuditLogInterceptor } from '../audit-log/audit-log.interceptor';

/**
 * What a route accepts (spec 5.1, decisions A4, H3). Every route declares exactly one, with `@Auth`.
 * - `none`: no credential (health, JWKS, session login, the processor webhook);
 * - `publishable`: a pk_ key only; a customer JWT, when sent, is verified and identifies the visitor;
 * - `any-key`: pk_ or sk_ (customer auth); a bearer header is ignored (decisions D3);
 * - `customer`: any key plus a customer JWT (customers/me);
 * - `secret-or-customer`: an sk_ key, or a pk_ key together with a customer JWT;
 * - `secret`: an sk_ key only;
 * - `session`: the admin session cookie;
 * - `session-if-sent`: the admin session cookie when one is sent (checked as for `session`, a
 *   viewer's write allowed), else nothing: an invitation accepted signed in or as a new account;
 * - `session-or-secret`: the admin session cookie or an sk_ key.
 */
export type Credential =
  | 'none'
  | 'publishable'
  | 'any-key'
  | 'customer'
  | 'secret-or-customer'
  | 'secret'
  | 'session'
  | 'session-if-sent'
  | 'session-or-secret';

export interface AuthRule {
  credential: Credential;
  /** Session routes a viewer may call with a write method: their own session, their own new publication. */
  viewerMayWrite?: boolean;
}

export type RateLimitClass = 'access-check' | 'events' | 'account-email' | 'offer-code' | 'default';

export const AUTH_RULE = Symbol('AUTH_RULE');
export const RATE_LIMIT_CLASS = Symbol('RATE_LIMIT_CLASS');

/**
 * Requests per 60-second window and identity (spec 8); `account-email`: the routes that send mail
 * or take its one-time credentials; `offer-code`: a reader looking an offer's code up, tight
 * enough that codes cannot be guessed by trying.
 */
export const RATE_LIMITS: Record<RateLimitClass, number> = { 'access-check': 1000, events: 200, 'account-email': 20, 'offer-code': 30, default: 200 };

const KEY_REFUSALS = '`api_key_missing` (no X-API-Key) or `api_key_invalid` (unknown or revoked key)';

const documentation: Record<Credential, { security: MethodDecorator[]; refusals: [number, string][] }> = {
  none: { security: [], refusals: [] },
  publishable: {
    security: [ApiSecurity('apiKey')],
    refusals: [
      [401, `${KEY_REFUSALS}; \`token_invalid\`/\`token_expired\` for a bad customer JWT`],
      [403, '`api_key_wrong_kind`: a secret key'],
    ],
  },
  'any-key': { security: [ApiSecurity('apiKey')], refusals: [[401, KEY_REFUSALS]] },
  customer: {
    security: [ApiSecurity('apiKey'), ApiBearerAuth('customerJwt')],
    refusals: [[401, `${KEY_REFUSALS}; \`customer_token_required\`, \`token_invalid\` or \`token_expired\``]],
  },
  'secret-or-customer': {
    security: [ApiSecurity('apiKey'), ApiBearerAuth('customerJwt')],
    refusals: [[401, `${KEY_REFUSALS}; \`customer_token_required\` (publishable key without a customer JWT), \`token_invalid\`, \`token_expired\``]],
  },
  secret: { security: [ApiSecurity('apiKey')], refusals: [[401, KEY_REFUSALS], [403, '`api_key_wrong_kind`: a publishable key']] },
  session: {
    security: [ApiCookieAuth('adminSession')],
    refusals: [
      [401, '`session_required`'],
      [403, '`forbidden` (a viewer writing) or `csrf_failed` (a foreign Origin)'],
    ],
  },
  'session-if-sent': { security: [ApiCookieAuth('adminSession')], refusals: [[403, '`csrf_failed` (a foreign Origin)']] },
  'session-or-secret': {
    security: [ApiCookieAuth('adminSession'), ApiSecurity('apiKey')],
    refusals: [
      [401, `\`session_required\` without a key; ${KEY_REFUSALS}`],
      [403, '`api_key_wrong_kind` (a publishable key), `forbidden` (a viewer writing) or `csrf_failed`'],
    ],
  },
};

/** The credentials that can carry a staff session: only their routes can be staff writes, which the audit log records. */
const SESSION_CREDENTIALS = new Set<Credential>(['session', 'session-if-sent', 'session-or-secret']);

/**
 * Declares the credentials a route accepts; the edge guard enforces it and /docs shows it. A route
 * a staff session may call gets the audit log's interceptor; the others (the page-view routes among
 * them) run with no interceptor at all, so Nest answers them without an observable pipeline.
 */
export function Auth(credential: Credential, options: Omit<AuthRule, 'credential'> = {}): MethodDecorator {
  const { security, refusals } = documentation[credential];
  return applyDecorators(
    SetMetadata(AUTH_RULE, { credential, ...options } satisfies AuthRule),
    ...(SESSION_CREDENTIALS.has(credential) ? [UseInterceptors(AuditLogInterceptor)] : []),
    ...security,
    ...refusals.map(([status, description]) => ApiResponse({ status, description })),
    ApiResponse({ status: 429, description: '`rate_limited`, with `Retry-After`' }),
  );
}

/** The rate-limit class of a route; `default` when not declared. */
export function RateLimit(limitClass: RateLimitClass): MethodDecorator {
  return SetMetadata(RATE_LIMIT_CLASS, limitClass);
}
