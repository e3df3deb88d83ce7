import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { HeaderObject, OperationObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_CODES, type ErrorCode } from '@gatehouse/contracts';
import { problem, statusOf } from '@gatehouse/platform';
import { ProblemDetailsDto } from './api-views';

const PROBLEM_JSON = 'application/problem+json';
const WRITE_METHODS = new Set(['post', 'put', 'patch']);

/** Headers every answer carries (decisions B3, C2), and the one a 429 adds. */
const COMMON_HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': { description: 'The request id, as sent (when well formed) or generated; logs carry it.', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Requests allowed per 60-second window for this identity.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Whole seconds until the window resets.', schema: { type: 'integer' } },
};
const RETRY_AFTER: HeaderObject = { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } };

/** Errors any route may answer besides the ones it documents itself. */
function implicitErrors(method: string, operation: OperationObject): Array<[number, ErrorCode, string]> {
  const errors: Array<[number, ErrorCode, string]> = [
    [500, 'internal_error', 'An unexpected fault, logged with the request id; nothing of it is shown.'],
    [503, 'service_unavailable', 'A service or the bus did not answer within 5 s.'],
  ];
  const takesInput = (operation.parameters?.length ?? 0) > 0 || operation.requestBody !== undefined;
  if (takesInput) errors.push([400, 'validation_failed', 'A field is missing, of the wrong type, unknown or out of range; `errors` names each.']);
  if (WRITE_METHODS.has(method)) {
    errors.push([413, 'payload_too_large', 'The JSON body is over 100 KiB.'], [415, 'unsupported_media_type', 'The body is not JSON.']);
  }
  return errors;
}

/** The codes a response's description names in backticks, else every code of its status. */
function codesOf(status: number, description: string): ErrorCode[] {
  const named = ERROR_CODES.filter((code) => description.includes(`\`${code}\``) && statusOf(code) === status);
  return named.length > 0 ? named : ERROR_CODES.filter((code) => statusOf(code) === status);
}

function exampleProblem(code: ErrorCode) {
  return code === 'validation_failed'
    ? problem(code, 'The request is invalid.', [{ field: 'email', message: 'must be an email address' }])
    : problem(code);
}

/**
 * Completes what the decorators declare: every error answer is problem details with the codes it
 * may carry, every answer documents the common headers, and routes without credentials say so.
 */
function completeDocument(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.headers = { ...COMMON_HEADERS, 'Retry-After': RETRY_AFTER };
  const commonHeaders = Object.fromEntries(Object.keys(COMMON_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item) as Array<[string, OperationObject]>) {
      if (typeof operation !== 'object' || !operation.responses) continue;
      operation.security ??= [];
      for (const [status, code, description] of implicitErrors(method, operation)) {
        const existing = operation.responses[status] as ResponseObject | undefined;
        if (!existing) operation.responses[status] = { description: `\`${code}\`: ${description}` };
        else if (!existing.content && !existing.description.includes(`\`${code}\``)) existing.description += `; \`${code}\`: ${description}`;
      }
      for (const [status, response] of Object.entries(operation.responses) as Array<[string, ResponseObject]>) {
        const code = Number(status);
        response.headers = { ...commonHeaders, ...(code === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}), ...response.headers };
        if (code < 400 || response.content) continue;
        const codes = codesOf(code, response.description);
        response.content = {
          [PROBLEM_JSON]: {
            schema: { allOf: [{ $ref: getSchemaPath(ProblemDetailsDto) }, { type: 'object', properties: { code: { type: 'string', enum: codes } } }] },
            example: exampleProblem(codes[0]),
          },
        };
      }
    }
  }
  return document;
}

/** The OpenAPI document served at /docs/json. */
export function buildApiDocument(app: INestApplication, publicBaseUrl: string | undefined): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Gatehouse API')
    .setDescription(
      'Subscription access and paywall service. Every error is RFC 9457 problem details (`application/problem+json`) with a stable `code`; every response carries `X-Request-Id` and the rate-limit headers.',
    )
    .setVersion('1')
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    .addServer(publicBaseUrl ?? '/', publicBaseUrl ? 'This deployment' : 'The origin serving this document')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'pk_ (publishable) or sk_ (secret) key' }, 'apiKey')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Customer access token' }, 'customerJwt')
    .addCookieAuth('service_session', { type: 'apiKey', in: 'cookie', name: 'service_session', description: 'Admin session' }, 'adminSession')
    .build();
  return completeDocument(SwaggerModule.createDocument(app, config, { extraModels: [ProblemDetailsDto] }));
}
