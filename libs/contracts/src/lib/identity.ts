import { requestPattern } from './patterns';

/** A public signing key as a JSON Web Key (RFC 7517). */
export interface PublicJwk {
  kty: string;
  kid: string;
  alg: string;
  use: 'sig';
  crv?: string;
  x?: string;
  y?: string;
}

export interface Jwks {
  keys: PublicJwk[];
}

/** The public keys customer access tokens are verified with; served at /api/v1/auth/.well-known/jwks.json. */
export const GetJwks = requestPattern<Record<string, never>, Jwks>('identity.jwks.get');
