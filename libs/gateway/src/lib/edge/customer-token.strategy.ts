import { Injectable, type ExecutionContext } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import {
  CUSTOMER_TOKEN_ALGORITHM,
  CUSTOMER_TOKEN_AUDIENCE,
  CUSTOMER_TOKEN_ISSUER,
  GetJwks,
  type CustomerTokenClaims,
} from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import { createPublicKey } from 'node:crypto';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { VerifiedCustomer } from './principal';

/** How often an unknown `kid` may trigger a fresh JWKS fetch (key rotation), at most. */
const REFETCH_INTERVAL_MS = 30_000;

/**
 * Identity's public signing keys, fetched over the bus and kept: tokens are verified here in the
 * gateway, never by a call per request.
 */
@Injectable()
export class JwksCache {
  /** PEM public keys by kid. */
  private keys = new Map<string, string>();
  private fetchedAt = 0;

  constructor(private readonly bus: BusClient) {}

  async keyFor(kid: string): Promise<string | undefined> {
    if (!this.keys.has(kid) && Date.now() - this.fetchedAt > REFETCH_INTERVAL_MS) {
      const { keys } = await this.bus.request(GetJwks, {});
      this.keys = new Map(
        keys.map((jwk) => [jwk.kid, createPublicKey({ key: { ...jwk }, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString()]),
      );
      this.fetchedAt = Date.now();
    }
    return this.keys.get(kid);
  }
}

function kidOf(rawJwt: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(rawJwt.split('.')[0], 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

/** The `exp` of a token that just verified, in epoch milliseconds. */
function expiryOf(authorization: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(authorization.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Customer access tokens: ES256 pinned, `iss`, `aud` and `exp` checked (decisions D2). */
@Injectable()
export class CustomerTokenStrategy extends PassportStrategy(Strategy, 'customer-jwt') {
  constructor(jwks: JwksCache) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: [CUSTOMER_TOKEN_ALGORITHM],
      issuer: CUSTOMER_TOKEN_ISSUER,
      audience: CUSTOMER_TOKEN_AUDIENCE,
      secretOrKeyProvider: (_request: unknown, rawJwt: string, done: (err: unknown, key?: string) => void) => {
        const kid = kidOf(rawJwt);
        if (!kid) return done(new AppError('token_invalid', 'The access token names no signing key.'));
        jwks.keyFor(kid).then(
          (key) => (key ? done(null, key) : done(new AppError('token_invalid', 'The access token was not signed by a known key.'))),
          (err: unknown) => done(err),
        );
      },
    });
  }

  validate(claims: CustomerTokenClaims): VerifiedCustomer {
    if (typeof claims.sub !== 'string' || typeof claims.pub !== 'string') {
      throw new AppError('token_invalid', 'The access token lacks its subject or publication.');
    }
    return { customerId: claims.sub, publicationId: claims.pub, emailVerified: claims.email_verified === true };
  }
}

/** A verified token is trusted again without a signature check for this long at most (never past its `exp`). */
const VERIFIED_TTL_MS = 60_000;
const MAX_VERIFIED = 10_000;

/**
 * Runs the strategy and turns its verdict into our codes: expired tokens are told apart so the SDK
 * refreshes. A token that verified is remembered until its expiry (a minute at most), so a reader's
 * page views cost one signature check a minute rather than one each.
 */
@Injectable()
export class CustomerTokenGuard extends AuthGuard('customer-jwt') {
  private readonly verified = new Map<string, { customer: VerifiedCustomer; until: number }>();

  async verify(context: ExecutionContext): Promise<VerifiedCustomer> {
    const request = context.switchToHttp().getRequest<{ user: VerifiedCustomer; headers: Record<string, string | string[] | undefined> }>();
    const token = request.headers['authorization'];
    const known = typeof token === 'string' ? this.verified.get(token) : undefined;
    if (known && known.until > Date.now()) return known.customer;
    await this.canActivate(context);
    const customer = request.user;
    const expiresAt = typeof token === 'string' ? expiryOf(token) : undefined;
    if (typeof token === 'string' && expiresAt !== undefined) {
      if (this.verified.size >= MAX_VERIFIED) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, { customer, until: Math.min(expiresAt, Date.now() + VERIFIED_TTL_MS) });
    }
    return customer;
  }

  override handleRequest<T>(err: unknown, user: T, info: unknown): T {
    if (err instanceof AppError) throw err;
    if (user) return user;
    if (info instanceof Error && info.name === 'TokenExpiredError') throw new AppError('token_expired', 'The access token has expired.');
    throw new AppError('token_invalid', 'The access token is not valid.');
  }
}
