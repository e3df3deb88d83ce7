import {
  CUSTOMER_TOKEN_ALGORITHM,
  CUSTOMER_TOKEN_AUDIENCE,
  CUSTOMER_TOKEN_ISSUER,
  type CustomerTokenClaims,
  type Jwks,
} from '@gatehouse/contracts';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** A reader whose customer access token verified: who they are, until when. */
export interface VerifiedCustomer {
  customerId: string;
  publicationId: string;
  /** Whether the address was verified when the token was issued. */
  emailVerified: boolean;
  /** The token's expiry, Unix epoch milliseconds. */
  expiresAt: number;
}

/** How often a token naming an unknown key may fetch the JWKS again (a key rotation), at most. */
const REFETCH_INTERVAL_MS = 30_000;
/** Known keys are fetched again this often, so a key identity retired stops verifying here too. */
const MAX_AGE_MS = 5 * 60_000;

/**
 * Customer access tokens verified here, offline: ES256 pinned, `iss`, `aud` and `exp` checked
 * against identity's public keys (the JWKS), fetched once and kept, so a page view costs no round
 * trip for the signature (decisions D2).
 */
export class CustomerTokenVerifier {
  private keys = new Map<string, KeyObject>();
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private fetching: Promise<void> | null = null;

  constructor(
    private readonly fetchJwks: () => Promise<Jwks>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The token's customer, or null when it is not a current token of Gatehouse's (malformed,
   * forged, expired, or signed by a key the JWKS does not hold). Rejects only when the JWKS cannot
   * be fetched and no key is known.
   */
  async verify(token: string): Promise<VerifiedCustomer | null> {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const header = decodeJson(parts[0]);
    const claims = decodeJson(parts[1]) as Partial<CustomerTokenClaims> | null;
    if (!header || !claims || header['alg'] !== CUSTOMER_TOKEN_ALGORITHM || typeof header['kid'] !== 'string') return null;
    const key = await this.keyFor(header['kid']);
    if (!key) return null;
    const signed = verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2], 'base64url'));
    if (!signed || claims.iss !== CUSTOMER_TOKEN_ISSUER || claims.aud !== CUSTOMER_TOKEN_AUDIENCE) return null;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= this.now()) return null;
    if (typeof claims.sub !== 'string' || typeof claims.pub !== 'string') return null;
    return { customerId: claims.sub, publicationId: claims.pub, emailVerified: claims.email_verified === true, expiresAt: claims.exp * 1000 };
  }

  private async keyFor(kid: string): Promise<KeyObject | undefined> {
    const age = this.now() - this.fetchedAt;
    if ((!this.keys.has(kid) && age > REFETCH_INTERVAL_MS) || age > MAX_AGE_MS) {
      try {
        await (this.fetching ??= this.refetch().finally(() => (this.fetching = null)));
      } catch (error) {
        // Gatehouse unreachable: the keys already known keep verifying until it answers again.
        if (this.keys.size === 0) throw error;
      }
    }
    return this.keys.get(kid);
  }

  private async refetch(): Promise<void> {
    const { keys } = await this.fetchJwks();
    const usable = keys.filter((jwk) => jwk.alg === CUSTOMER_TOKEN_ALGORITHM && typeof jwk.kid === 'string');
    this.keys = new Map(usable.map((jwk) => [jwk.kid, createPublicKey({ key: { ...jwk }, format: 'jwk' })]));
    this.fetchedAt = this.now();
  }
}

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
