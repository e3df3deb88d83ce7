import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import {
  CUSTOMER_TOKEN_ALGORITHM,
  CUSTOMER_TOKEN_AUDIENCE,
  CUSTOMER_TOKEN_ISSUER,
  GetJwks,
  type CustomerTokenClaims,
} from '@gatehouse/contracts';
import { BusClient, ReadModels, type ReadModel } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import { createLocalJWKSet, decodeProtectedHeader, type JWTVerifyGetKey } from 'jose';
import type { KeyObject } from 'node:crypto';
import passport from 'passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { VerifiedCustomer } from './principal';

/** How often an unknown `kid` may trigger a fresh JWKS fetch (key rotation), at most. */
const REFETCH_INTERVAL_MS = 30_000;
/** A verified token is trusted again without a signature check for this long at most (never past its `exp`). */
const VERIFIED_FOR_MS = 60_000;
const BEARER = /^Bearer +([A-Za-z0-9_.-]+) *$/i;
const STRATEGY = 'customer-jwt';

interface SigningKeys {
  /** jose's local JWKS: the key a token's protected header names. */
  keys: JWTVerifyGetKey;
  kids: ReadonlySet<string>;
  fetchedAt: number;
}

/**
 * Identity's public signing keys, fetched over the bus and kept (jose's JWKS): known keys are
 * fetched again every five minutes, so a key identity retired stops verifying here too; an unknown
 * `kid` (a rotation) fetches them again at most every 30 s; while identity is unreachable the keys
 * known keep verifying.
 */
@Injectable()
export class SigningKeysReadModel {
  private readonly model: ReadModel<'jwks', SigningKeys>;

  constructor(bus: BusClient, readModels: ReadModels) {
    this.model = readModels.define<'jwks', SigningKeys>({
      name: 'jwks',
      load: async () => {
        const jwks = await bus.request(GetJwks, {});
        return { keys: createLocalJWKSet(jwks), kids: new Set(jwks.keys.map((key) => key.kid)), fetchedAt: Date.now() };
      },
      max: 1,
      freshMs: 5 * 60_000,
      staleOnFailure: { retryMs: 5_000 },
    });
  }

  /** The public key (PEM) of a raw token's `kid`, or the refusal a reader's client understands. */
  async keyOf(rawJwt: string): Promise<string> {
    let header;
    try {
      header = decodeProtectedHeader(rawJwt);
    } catch {
      throw new AppError('token_invalid', 'The access token is not valid.');
    }
    if (!header.kid) throw new AppError('token_invalid', 'The access token names no signing key.');
    let signing = await this.model.get('jwks');
    if (!signing.kids.has(header.kid) && Date.now() - signing.fetchedAt > REFETCH_INTERVAL_MS) {
      const before = signing;
      signing = await this.model.reload('jwks');
      if (signing === before) throw new AppError('service_unavailable', 'The signing keys of access tokens could not be fetched.');
    }
    if (!signing.kids.has(header.kid)) throw new AppError('token_invalid', 'The access token was not signed by a known key.');
    const key = await signing.keys({ kid: header.kid, alg: CUSTOMER_TOKEN_ALGORITHM }, { payload: '', signature: '' });
    return (key as KeyObject).export({ type: 'spki', format: 'pem' }).toString();
  }
}

/** Customer access tokens through passport-jwt: ES256 pinned, `iss`, `aud` and `exp` checked (decisions D2). */
@Injectable()
export class CustomerTokenStrategy extends PassportStrategy(Strategy, STRATEGY) {
  constructor(signingKeys: SigningKeysReadModel) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: [CUSTOMER_TOKEN_ALGORITHM],
      issuer: CUSTOMER_TOKEN_ISSUER,
      audience: CUSTOMER_TOKEN_AUDIENCE,
      secretOrKeyProvider: (_request: unknown, rawJwt: string, done: (err: unknown, key?: string) => void) => {
        signingKeys.keyOf(rawJwt).then((key) => done(null, key), done);
      },
    });
  }

  validate(claims: CustomerTokenClaims): VerifiedCustomer & { expiresAt: number } {
    if (typeof claims.sub !== 'string' || typeof claims.pub !== 'string' || typeof claims.exp !== 'number') {
      throw new AppError('token_invalid', 'The access token lacks its subject, publication or expiry.');
    }
    return { customerId: claims.sub, publicationId: claims.pub, emailVerified: claims.email_verified === true, expiresAt: claims.exp * 1000 };
  }
}

/**
 * Customer access tokens, verified here at the edge against identity's public keys, never by a
 * call per request: a token that verified is kept (a read model) until its expiry, a minute at
 * most, so a reader's page views cost one signature check a minute rather than one each.
 */
@Injectable()
export class CustomerTokens {
  private readonly verified: ReadModel<string, VerifiedCustomer & { expiresAt: number }>;

  // The strategy is injected so that it is registered with passport before the first token.
  constructor(readModels: ReadModels, _strategy: CustomerTokenStrategy) {
    this.verified = readModels.define({
      name: 'verified-customer-tokens',
      load: (token) => verifyWithPassport(token),
      max: 10_000,
      freshMs: VERIFIED_FOR_MS,
      freshMsOf: ({ expiresAt }) => Math.min(expiresAt - Date.now(), VERIFIED_FOR_MS),
    });
  }

  /** The customer of a `Bearer` access token, or 401 `token_expired` (the SDK then refreshes) or `token_invalid`. */
  async customerOf(authorization: string | string[] | undefined): Promise<VerifiedCustomer> {
    const token = typeof authorization === 'string' ? BEARER.exec(authorization)?.[1] : undefined;
    if (!token) throw new AppError('token_invalid', 'Send the access token as `Authorization: Bearer <token>`.');
    const { customerId, publicationId, emailVerified } = await this.verified.get(token);
    return { customerId, publicationId, emailVerified };
  }
}

/** Runs the registered strategy on the token alone, with passport's own custom-callback form, and turns its verdict into our codes. */
function verifyWithPassport(token: string): Promise<VerifiedCustomer & { expiresAt: number }> {
  return new Promise((resolve, reject) => {
    const request = { headers: { authorization: `Bearer ${token}` } };
    const authenticate = passport.authenticate(STRATEGY, { session: false }, (err: unknown, customer: (VerifiedCustomer & { expiresAt: number }) | false, info: unknown) => {
      if (err instanceof AppError) return reject(err);
      if (err) return reject(new AppError('token_invalid', 'The access token is not valid.'));
      if (customer) return resolve(customer);
      // What the key provider refused (an unknown key, identity unreachable) arrives as the failure's reason.
      if (info instanceof AppError) return reject(info);
      if (info instanceof Error && info.name === 'TokenExpiredError') return reject(new AppError('token_expired', 'The access token has expired.'));
      reject(new AppError('token_invalid', 'The access token is not valid.'));
    });
    authenticate(request, {}, (err: unknown) => reject(err ?? new AppError('token_invalid', 'The access token is not valid.')));
  });
}
