import type { CustomerTokenClaims, Jwks } from '@gatehouse/contracts';
import { createPublicKey, verify } from 'node:crypto';

export interface VerifiedAccessToken {
  header: { alg: string; typ: string; kid: string };
  claims: CustomerTokenClaims;
}

/** What a relying service does with a customer access token: pin ES256, pick the key by kid, check the signature. */
export function verifyAccessToken(token: string, jwks: Jwks): VerifiedAccessToken {
  const [encodedHeader, encodedClaims, encodedSignature] = token.split('.');
  const header = decode(encodedHeader) as VerifiedAccessToken['header'];
  if (header.alg !== 'ES256') throw new Error(`unexpected alg ${header.alg}`);
  const jwk = jwks.keys.find((key) => key.kid === header.kid);
  if (!jwk) throw new Error(`no key ${header.kid} in the JWKS`);
  const key = createPublicKey({ key: { ...jwk }, format: 'jwk' });
  const signature = Buffer.from(encodedSignature, 'base64url');
  const valid = verify('sha256', Buffer.from(`${encodedHeader}.${encodedClaims}`), { key, dsaEncoding: 'ieee-p1363' }, signature);
  if (!valid) throw new Error('signature does not verify');
  return { header, claims: decode(encodedClaims) as CustomerTokenClaims };
}

function decode(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}
