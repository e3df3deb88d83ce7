import { Injectable, Logger, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerGetTrackerFunction,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { AdminRequests } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError, sha256Hex } from '@gatehouse/platform';
import type { FastifyReply } from 'fastify';
import { DeletedCustomers } from '../customers/deleted-customers.service';
import { GatewayConfig, trustedOrigins } from '../gateway.config';
import { ApiKeyReadModel } from './api-key.read-model';
import { RATE_LIMITS, type AuthRule } from './credentials';
import { CustomerTokens } from './customer-tokens.service';
import type { Principal, RequestWithPrincipal } from './principal';
import { RATE_LIMIT_WINDOW_MS, rateLimitHeaders } from './unrouted-rate-limiter.service';
import { routeEdgeOf } from './route-edges';
import { readCookie, SESSION_COOKIE } from './session-cookie';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_FORMAT = /^(pk|sk)_[A-Za-z0-9_-]{20,200}$/;

/**
 * The edge of every route: establishes who is calling exactly as the route declares with `@Auth`,
 * then counts the call against that identity's rate limit (decisions C1-C2) with
 * `@nestjs/throttler`'s guard: one throttler whose limit, key and tracker follow the route's
 * `@RateLimit` class and the caller. The limit headers go on every response, refusals included, so
 * a refused caller is counted too (as its IP when its credentials are not valid).
 */
@Injectable()
export class EdgeGuard extends ThrottlerGuard {
  protected override logger = new Logger(EdgeGuard.name);
  private readonly ownOrigins: Set<string>;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    config: GatewayConfig,
    private readonly bus: BusClient,
    private readonly keys: ApiKeyReadModel,
    private readonly customerTokens: CustomerTokens,
    private readonly deletedCustomers: DeletedCustomers,
  ) {
    super(options, storage, reflector);
    this.ownOrigins = trustedOrigins(config);
  }

  /** The one throttler: each route's class decides its limit per window (`RouteEdge`), counted per class and caller. */
  static throttlers(): ThrottlerModuleOptions {
    return {
      throttlers: [{ name: 'default', ttl: RATE_LIMIT_WINDOW_MS, limit: RATE_LIMITS.default }],
      getTracker: (request) => EdgeGuard.identityOf((request as RequestWithPrincipal).principal ?? {}, request as RequestWithPrincipal),
    };
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = routeEdgeOf(context.getHandler(), this.reflector);
    // Probes and metrics: no credentials, never counted (kubelets on one node share an IP).
    if (route.operations) return true;
    if (!route.rule) {
      this.logger.error(`${context.getClass().name}.${context.getHandler().name} declares no @Auth: refused`);
      throw new AppError('forbidden', 'This route is not available.');
    }
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    let principal: Principal = {};
    let refusal: unknown;
    try {
      principal = await this.authenticate(route.rule, request);
    } catch (err) {
      refusal = err;
    }
    request.principal = principal;
    // The throttler's own counting, headers and refusal (its own canActivate would read five more metadata keys).
    await this.handleRequest({
      context,
      limit: route.limit,
      ttl: RATE_LIMIT_WINDOW_MS,
      blockDuration: RATE_LIMIT_WINDOW_MS,
      throttler: this.throttlers[0],
      getTracker: this.commonOptions.getTracker as ThrottlerGetTrackerFunction,
      generateKey: route.key,
    });
    if (refusal) throw refusal;
    return true;
  }

  /** Past the limit: 429 with the three headers and `Retry-After`, as problem details. */
  protected override async throwThrottlingException(context: ExecutionContext, { limit, totalHits, timeToExpire }: ThrottlerLimitDetail): Promise<void> {
    rateLimitHeaders(context.switchToHttp().getResponse<FastifyReply>(), limit, totalHits, timeToExpire);
    throw AppError.retryLater('rate_limited', `Too many requests: at most ${limit} a minute. Retry in ${timeToExpire} s.`, timeToExpire);
  }

  private async authenticate(rule: AuthRule, request: RequestWithPrincipal): Promise<Principal> {
    const { credential } = rule;
    if (credential === 'none') return {};
    if (credential === 'session-if-sent') {
      return readCookie(request.headers.cookie, SESSION_COOKIE) ? { session: await this.authenticateSession({ credential, viewerMayWrite: true }, request).catch(noSession) } : {};
    }
    if (credential === 'session' || (credential === 'session-or-secret' && !request.headers['x-api-key'])) {
      return { session: await this.authenticateSession(rule, request) };
    }

    const apiKey = await this.authenticateKey(request);
    const kind = apiKey.kind;
    if ((credential === 'publishable' && kind !== 'publishable') || ((credential === 'secret' || credential === 'session-or-secret') && kind !== 'secret')) {
      throw new AppError('api_key_wrong_kind', `This route does not accept a ${kind} key.`);
    }
    // Login, register and refresh ignore a bearer header (decisions D3): clients send the expired one out of habit.
    if (credential === 'any-key') return { apiKey };
    const needsCustomer = credential === 'customer' || (credential === 'secret-or-customer' && kind === 'publishable');
    if (!request.headers.authorization) {
      if (needsCustomer) throw new AppError('customer_token_required', 'Send the customer access token as a Bearer token.');
      return { apiKey };
    }
    if (credential === 'secret' || credential === 'session-or-secret') return { apiKey };
    const customer = await this.customerTokens.customerOf(request.headers.authorization);
    if (this.deletedCustomers.has(customer.customerId)) throw new AppError('token_invalid', 'The customer of this access token was deleted.');
    if (customer.publicationId !== apiKey.publicationId) {
      throw new AppError('token_invalid', 'The access token belongs to another publication.');
    }
    return { apiKey, customer };
  }

  private async authenticateKey(request: RequestWithPrincipal) {
    const presented = request.headers['x-api-key'];
    if (presented === undefined || presented === '') throw new AppError('api_key_missing', 'Send an API key in the X-API-Key header.');
    const key = Array.isArray(presented) ? undefined : presented;
    const resolved = key && KEY_FORMAT.test(key) ? await this.keys.resolve(key) : null;
    if (!resolved) throw new AppError('api_key_invalid', 'The API key is not valid.');
    return resolved;
  }

  private async authenticateSession(rule: AuthRule, request: RequestWithPrincipal) {
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    const isWrite = WRITE_METHODS.has(request.method);
    if (token && isWrite) this.checkOrigin(request);
    const session = token ? await this.bus.request(AdminRequests.ResolveSession, { tokenHash: sha256Hex(token) }) : null;
    if (!session) throw new AppError('session_required', 'Log in to the dashboard first.');
    if (isWrite && session.role === 'viewer' && !rule.viewerMayWrite) {
      throw new AppError('forbidden', 'Viewers have read-only access.');
    }
    return session;
  }

  /** CSRF (decisions A4): a cookie-authenticated write whose Origin is present must be ours. */
  private checkOrigin(request: RequestWithPrincipal): void {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const own = this.ownOrigins.size > 0 ? this.ownOrigins : new Set([`${request.protocol}://${request.headers.host}`]);
    if (!own.has(origin)) throw new AppError('csrf_failed', 'This origin may not make dashboard changes.');
  }

  /** Decisions C1: secret key → the key; publishable key → key and IP; session → the staff member; else the IP. */
  private static identityOf(principal: Principal, request: RequestWithPrincipal): string {
    if (principal.session) return `staff:${principal.session.staffId}`;
    if (principal.apiKey?.kind === 'secret') return `key:${principal.apiKey.keyId}`;
    if (principal.apiKey) return `key:${principal.apiKey.keyId}:ip:${request.ip}`;
    return `ip:${request.ip}`;
  }
}

/** An expired or revoked cookie on a `session-if-sent` route is no session; any other refusal (CSRF) stands. */
function noSession(err: unknown): undefined {
  if (err instanceof AppError && err.code === 'session_required') return undefined;
  throw err;
}
