import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import { RequestMethod } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { AppError, LazyChildLogger, ProblemFilter, createValidationPipe, pathOfUrl, problem, sendProblem, toProblem, type HttpEdge } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Logger } from 'pino';
import { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { GatewayConfig, trustedOrigins, trustedProxies } from './gateway.config';
import { buildApiDocument } from './edge/api-document';
import { httpServerOptions, limitConnections } from './edge/http-server-limits';
import { checkJsonShape, refuseUnstorableText } from './edge/input-limits';
import { pagePolicy } from './edge/page-policies';
import { UnroutedRateLimiter } from './edge/unrouted-rate-limiter.service';
import { GatewayModule } from './gateway.module';
import { IMPORT_BODY_LIMIT, IMPORT_MEDIA_TYPES, tooLarge } from './imports/import-file';
import { DASHBOARD_PATH, dashboardDirectory, serveDashboard } from './dashboard/dashboard-assets';
import { compressAnswersUnder } from './web-assets/compression';

/** JSON bodies above this answer 413 `payload_too_large` (decisions B2)... */
export const JSON_BODY_LIMIT = 100 * 1024;
/** ...but for the processor's webhooks, whose signature covers the exact bytes received. */
export const PROCESSOR_WEBHOOK_PATH = '/api/v1/webhooks/processor';
export const PROCESSOR_BODY_LIMIT = 1024 * 1024;
/** Import files (text/csv, application/x-ndjson) are streamed to this route, up to IMPORT_BODY_LIMIT. */
export const IMPORTS_PATH = '/api/v1/admin/imports';

/** A request whose JSON body was parsed here; `rawBody` holds the bytes as received. */
export type RequestWithRawBody = FastifyRequest & { rawBody?: Buffer };
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/api/v1/health']);
const PAGE_VIEW_PATHS = new Set(['/api/v1/access/check', '/api/v1/events']);
const DOCS_PATH = '/docs';

/**
 * The public HTTP edge, for the runtime to boot: `/api/v1/*`, Swagger UI at `/docs`, problem
 * details for every error, an `X-Request-Id` on every response.
 */
export function gatewayEdge(config: GatewayConfig, logger: Logger): HttpEdge {
  // Set once the app exists; a URL refused before that has nothing to count against.
  let countByIp = async (_request: FastifyRequest, _reply: FastifyReply): Promise<void> => undefined;
  return {
    module: GatewayModule.forRoot(config),
    fastify: {
      loggerInstance: logger,
      // Requests are logged by the onResponse hook below, which leaves out health probes.
      logController: new LogController({ disableRequestLogging: true }),
      childLoggerFactory: (parent, bindings, options) => new LazyChildLogger(parent as Logger, bindings, options) as unknown as Logger,
      bodyLimit: PROCESSOR_BODY_LIMIT,
      ...httpServerOptions(config, logger),
      trustProxy: trustedProxies(config),
      // While closing, requests still arriving on kept-alive connections are refused by the first
      // onRequest hook below, as problem details, instead of by Fastify's own JSON body.
      return503OnClosing: false,
      // A malformed or over-long URL (over 100 characters in one path parameter) is refused before
      // routing: answer it like every other refusal, as problem details counted against the caller's IP.
      frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
        void reply.header('X-Request-Id', request.id);
        const detail = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is longer than 100 characters.' : 'The URL is not valid.';
        void countByIp(request, reply).then(
          () => sendProblem(reply, problem('validation_failed', detail)),
          (err: unknown) => sendProblem(reply, toProblem(err, logger, request.id)),
        );
      },
      genReqId: (req: IncomingMessage) => {
        const given = req.headers['x-request-id'];
        return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      },
    },
    async configure(app: NestFastifyApplication) {
      countByIp = await configureEdge(app, config, logger);
    },
  };
}

/** Everything between Fastify and the controllers; answers the counting the early refusals use. */
async function configureEdge(app: NestFastifyApplication, config: GatewayConfig, logger: Logger): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<void>> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  limitConnections(app.getHttpServer() as HttpServer, config);
  // Only JSON bodies are accepted (anything else answers 415); the raw bytes are kept for signatures.
  fastify.removeContentTypeParser(['text/plain', 'application/json']);
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    const limit = pathOfUrl(request.url) === PROCESSOR_WEBHOOK_PATH ? PROCESSOR_BODY_LIMIT : JSON_BODY_LIMIT;
    if (body.length > limit) return done(new AppError('payload_too_large', `JSON bodies are limited to ${limit / 1024} KiB.`), undefined);
    (request as RequestWithRawBody).rawBody = body;
    if (body.length === 0) return done(null, undefined);
    const text = body.toString('utf8');
    try {
      checkJsonShape(text);
    } catch (err) {
      return done(err as Error, undefined);
    }
    parseJson(request, text, (err, parsed) => {
      if (err) return done(new AppError('validation_failed', 'The body is not valid JSON.'), undefined);
      try {
        refuseUnstorableText(parsed, '');
      } catch (refusal) {
        return done(refusal as Error, undefined);
      }
      done(null, parsed);
    });
  });
  // Import files stream to their one route, under its own limit; anywhere else they are not JSON, so 415.
  fastify.addContentTypeParser(Object.keys(IMPORT_MEDIA_TYPES), (request, payload, done) => {
    if (pathOfUrl(request.url) !== IMPORTS_PATH) return done(new AppError('unsupported_media_type', 'Only JSON bodies are accepted here.'), undefined);
    if (Number(request.headers['content-length'] ?? 0) > IMPORT_BODY_LIMIT) return done(tooLarge(), undefined);
    done(null, payload);
  });
  // Text reaches the database, logs and other services from the query and the path too.
  fastify.addHook('preValidation', (request, _reply, done) => {
    try {
      refuseUnstorableText(request.query, '');
      refuseUnstorableText(request.params, '');
    } catch (refusal) {
      return done(refusal as Error);
    }
    done();
  });
  // No guard runs for a path no route matches: count it by client IP here, so it carries the headers too.
  const limits = app.get(UnroutedRateLimiter);
  const countByIp = (request: FastifyRequest, reply: FastifyReply) => limits.count(request.ip, reply);
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // One hook, in callback style: it runs on every request, page views included.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-Id', request.id);
    // Fastify has added `Connection: close`: the caller's retry opens a connection to another replica.
    if (closing) return sendProblem(reply, AppError.retryLater('service_unavailable', 'This gateway is shutting down; retry (another replica answers).', 1).problem);
    // Pages served beside the API (/docs, /dashboard, /demo) pass no guard either: counted here, with their policy.
    const policy = request.is404 ? undefined : pagePolicy(pathOfUrl(request.url));
    if (!request.is404 && !policy) return done();
    if (policy) void reply.header('Content-Security-Policy', policy);
    countByIp(request, reply).then(() => done(), done);
  });
  // After the hook above, so a preflight answered by CORS carries its request id too.
  await app.register(fastifyCors, crossOriginOptions(trustedOrigins(config)));
  compressAnswersUnder(fastify, [DASHBOARD_PATH, DOCS_PATH]);
  const dashboard = dashboardDirectory(config);
  if (dashboard) serveDashboard(fastify, dashboard);
  fastify.addHook('onResponse', (request, reply, done) => {
    const path = pathOfUrl(request.url);
    // The per-page-view routes answered well are logged at debug: at their rate a line each costs more than the answer.
    const level = reply.statusCode < 400 && PAGE_VIEW_PATHS.has(path) ? 'debug' : 'info';
    if (!QUIET_PATHS.has(path) && logger.isLevelEnabled(level)) {
      request.log[level]({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    }
    done();
  });

  app.setGlobalPrefix('api/v1', {
    exclude: [
      { path: 'healthz', method: RequestMethod.GET },
      { path: 'readyz', method: RequestMethod.GET },
      { path: 'metrics', method: RequestMethod.GET },
      { path: 'sdk/v1/:file', method: RequestMethod.GET },
    ],
  });
  app.useGlobalFilters(new ProblemFilter(logger));
  app.useGlobalPipes(createValidationPipe());

  const document = buildApiDocument(app, config.PUBLIC_BASE_URL);
  SwaggerModule.setup(DOCS_PATH.slice(1), app, document, { jsonDocumentUrl: `${DOCS_PATH.slice(1)}/json` });
  return countByIp;
}

export { GatewayConfig };

const CORS = {
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  allowedHeaders: ['X-API-Key', 'Authorization', 'Content-Type', 'If-None-Match', 'X-Request-Id', 'Idempotency-Key'],
  exposedHeaders: ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'ETag', 'Idempotent-Replayed'],
  maxAge: 600,
  // A bare OPTIONS is routed like any request (404 as problem details), not refused in plain text.
  strictPreflight: false,
};

/**
 * CORS (`@fastify/cors`): the browser SDK calls the API from publishers' own sites, so any origin
 * may call it with a key, never with cookies; only the dashboard's origins may send the session
 * cookie (and its writes still pass the CSRF check).
 */
function crossOriginOptions(credentialed: Set<string>): FastifyCorsOptions {
  const keysOnly = { ...CORS, origin: true, credentials: false };
  const withCookies = { ...CORS, origin: true, credentials: true };
  const none = { origin: false };
  return {
    delegator: (request, done) => {
      const origin = request.headers.origin;
      done(null, !origin ? none : credentialed.has(origin) ? withCookies : keysOnly);
    },
  };
}
