import { CUSTOMER_TOKEN_AUDIENCE, CUSTOMER_TOKEN_ISSUER, type Jwks, type PublicJwk } from '@gatehouse/contracts';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { CustomerTokenVerifier } from '../customer-tokens';

const NOW = Date.UTC(2030, 0, 1);

/** A signing key as identity keeps one, and its JWKS entry. */
function signingKey(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk: PublicJwk = { ...publicKey.export({ format: 'jwk' }), kty: 'EC', kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKey, jwk };
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
function token(key: { kid: string; privateKey: KeyObject }, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): string {
  const input = `${b64({ alg: 'ES256', typ: 'JWT', kid: key.kid, ...header })}.${b64({
    sub: 'customer-1',
    pub: 'publication-1',
    iat: NOW / 1000 - 60,
    exp: NOW / 1000 + 840,
    iss: CUSTOMER_TOKEN_ISSUER,
    aud: CUSTOMER_TOKEN_AUDIENCE,
    email_verified: true,
    ...claims,
  })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

describe('customer tokens verified offline', () => {
  const first = signingKey('k1');
  const second = signingKey('k2');
  let now = NOW;
  let jwks: Jwks = { keys: [first.jwk] };
  let fetches = 0;
  let reachable = true;
  const verifier = () =>
    new CustomerTokenVerifier(
      async () => {
        fetches++;
        if (!reachable) throw new Error('connection refused');
        return jwks;
      },
      () => now,
    );

  beforeEach(() => {
    now = NOW;
    jwks = { keys: [first.jwk] };
    fetches = 0;
    reachable = true;
  });

  it("takes a current token of identity's and names its customer, fetching the keys once", async () => {
    const tokens = verifier();
    for (let i = 0; i < 5; i++) {
      await expect(tokens.verify(token(first))).resolves.toEqual({ customerId: 'customer-1', publicationId: 'publication-1', emailVerified: true, expiresAt: NOW + 840_000 });
    }
    expect(fetches).toBe(1);
  });

  it('refuses forged, tampered, expired, foreign and malformed tokens', async () => {
    const tokens = verifier();
    const good = token(first);
    const [header, payload, signature] = good.split('.');
    const forged = [
      `${header}.${b64({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'customer-2' })}.${signature}`,
      `${header}.${payload}.${signature.slice(0, -4)}AAAA`,
      token(first, { exp: NOW / 1000 - 1 }),
      token(first, { iss: 'someone-else' }),
      token(first, { aud: 'another-api' }),
      token(first, { sub: 42 }),
      token(first, {}, { alg: 'HS256' }),
      `${b64({ alg: 'none', kid: 'k1' })}.${payload}.`,
      token(signingKey('k1'), {}),
      'not-a-token',
      'a.b.c',
      '',
    ];
    for (const bad of forged) await expect(tokens.verify(bad)).resolves.toBeNull();
  });

  it('fetches the keys again for an unknown key at most every 30 s, and keeps verifying with known keys while Gatehouse is unreachable', async () => {
    const tokens = verifier();
    await tokens.verify(token(first));
    jwks = { keys: [first.jwk, second.jwk] };
    await expect(tokens.verify(token(second))).resolves.toBeNull();
    expect(fetches).toBe(1);
    now += 31_000;
    await expect(tokens.verify(token(second))).resolves.toMatchObject({ customerId: 'customer-1' });
    expect(fetches).toBe(2);

    reachable = false;
    now += 6 * 60_000;
    await expect(tokens.verify(token(first, { exp: now / 1000 + 60 }))).resolves.toMatchObject({ customerId: 'customer-1' });
    await expect(verifier().verify(token(first))).rejects.toThrow('connection refused');
  });
});
