import { Injectable } from '@nestjs/common';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  CUSTOMER_TOKEN_ALGORITHM,
  CUSTOMER_TOKEN_AUDIENCE,
  CUSTOMER_TOKEN_ISSUER,
  type CustomerTokenClaims,
} from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import { sign } from 'node:crypto';
import { SigningKeysService } from '../signing-keys/signing-keys.service';

export interface AccessToken {
  token: string;
  /** The `exp` claim in Unix epoch milliseconds. */
  expiresAt: number;
}

/** Customer access tokens (decisions D2): ES256 JWTs signed with the active key, verifiable with the JWKS. */
@Injectable()
export class AccessTokenSigner {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly clock: Clock,
  ) {}

  async sign(customer: { id: string; publicationId: string; emailVerifiedAt: Date | null }): Promise<AccessToken> {
    const { kid, privateKey } = await this.keys.activeKey();
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims: CustomerTokenClaims = {
      sub: customer.id,
      pub: customer.publicationId,
      iat,
      exp: iat + ACCESS_TOKEN_TTL_SECONDS,
      iss: CUSTOMER_TOKEN_ISSUER,
      aud: CUSTOMER_TOKEN_AUDIENCE,
      email_verified: customer.emailVerifiedAt !== null,
    };
    const signingInput = `${base64urlJson({ alg: CUSTOMER_TOKEN_ALGORITHM, typ: 'JWT', kid })}.${base64urlJson(claims)}`;
    // JWS wants the raw r||s pair (RFC 7518 3.4), not node's default DER encoding.
    const signature = sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    return { token: `${signingInput}.${signature.toString('base64url')}`, expiresAt: claims.exp * 1000 };
  }
}

function base64urlJson(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
