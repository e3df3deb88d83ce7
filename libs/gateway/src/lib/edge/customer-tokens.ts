import { Injectable } from '@nestjs/common';
import { CUSTOMER_TOKEN_ALGORITHM, CUSTOMER_TOKEN_AUDIENCE, CUSTOMER_TOKEN_ISSUER, GetJwks } from '@gatehouse/contracts';
import { BusClient, ReadModels, type ReadModel } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { VerifiedCustomer } from './principal';

/** How often an unknown `kid` may trigger a fresh JWKS fetch (key rotation), at most. */
const REFETCH_INTERVAL_MS = 30_000;
/** A verified token is trusted again without a signature check for this long at most (never past its `exp`). */
const VERIFIED_FOR_MS = 60_000;
const BEARER = /^Bearer +([A-Za-z0-9_.-]+) *$/i;

interface SigningKeys {
  keys: JWTVerifyGetKey;
  kids: ReadonlySet<string>;
  fetchedAt: number;
}

/**
 * Customer access tokens, verified here at the edge (decisions D2: ES256 pinned, `iss`, `aud` and
 * `exp` checked) against identity's public keys, which are fetched over the bus and kept: a
 * reader's page views cost one signature check a minute, not one each, and no call to identity.
 * Known keys are fetched again every five minutes, so a key identity retired stops verifying here
 * too; while identity is unreachable the keys known keep verifying.
 */
@Injectable()
export class CustomerTokens {
  private readonly signingKeys: ReadModel<'jwks', SigningKeys>;
  private readonly verified: ReadModel<string, VerifiedCustomer & { expiresAt: number }>;

  constructor(bus: BusClient, readModels: ReadModels) {
    this.signingKeys = readModels.define<'jwks', SigningKeys>({
      name: 'jwks',
      load: async () => {
        const jwks = await bus.request(GetJwks, {});
        return { keys: createLocalJWKSet(jwks), kids: new Set(jwks.keys.map((key) => key.kid)), fetchedAt: Date.now() };
      },
      max: 1,
      freshMs: 5 * 60_000,
      staleOnFailure: { retryMs: 5_000 },
    });
    this.verified = readModels.define({
      name: 'verified-customer-tokens',
      load: (token) => this.verify(token),
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

  private async verify(token: string): Promise<VerifiedCustomer & { expiresAt: number }> {
    const kid = kidOf(token);
    if (!kid) throw new AppError('token_invalid', 'The access token names no signing key.');
    let signing = await this.signingKeys.get('jwks');
    if (!signing.kids.has(kid) && Date.now() - signing.fetchedAt > REFETCH_INTERVAL_MS) {
      const before = signing;
      signing = await this.signingKeys.reload('jwks');
      if (signing === before) throw new AppError('service_unavailable', 'The signing keys of access tokens could not be fetched.');
    }
    if (!signing.kids.has(kid)) throw new AppError('token_invalid', 'The access token was not signed by a known key.');
    let claims;
    try {
      ({ payload: claims } = await jwtVerify(token, signing.keys, {
        algorithms: [CUSTOMER_TOKEN_ALGORITHM],
        issuer: CUSTOMER_TOKEN_ISSUER,
        audience: CUSTOMER_TOKEN_AUDIENCE,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new AppError('token_expired', 'The access token has expired.');
      throw new AppError('token_invalid', 'The access token is not valid.');
    }
    if (typeof claims.sub !== 'string' || typeof claims['pub'] !== 'string') {
      throw new AppError('token_invalid', 'The access token lacks its subject or publication.');
    }
    return { customerId: claims.sub, publicationId: claims['pub'], emailVerified: claims['email_verified'] === true, expiresAt: (claims.exp as number) * 1000 };
  }
}

function kidOf(token: string): string | undefined {
  try {
    return decodeProtectedHeader(token).kid;
  } catch {
    return undefined;
  }
}
