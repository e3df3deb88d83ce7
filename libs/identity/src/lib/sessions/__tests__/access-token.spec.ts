import { GetJwks, IdentityRequests, type Jwks } from '@gatehouse/contracts';
import { verifyAccessToken } from '../../__tests__/support/access-token-verifier';
import { newPublicationId, registerCustomer, startIdentity, type IdentityUnderTest } from '../../__tests__/support/identity-under-test';

describe('customer access tokens', () => {
  let identity: IdentityUnderTest;
  let jwks: Jwks;
  const publicationId = newPublicationId();

  beforeAll(async () => {
    identity = await startIdentity();
    jwks = await identity.bus.request(GetJwks, {});
  });

  afterAll(() => identity?.close());

  it('is an ES256 JWT naming the JWKS key, and verifies with it', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const { header } = verifyAccessToken(auth.accessToken, jwks);
    expect(header).toEqual({ alg: 'ES256', typ: 'JWT', kid: jwks.keys[0].kid });
  });

  it('claims the customer, the publication, issuer and audience, for 15 minutes from the clock', async () => {
    const issuedAt = Math.floor(identity.clock.now().getTime() / 1000);
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const { claims } = verifyAccessToken(auth.accessToken, jwks);
    expect(claims).toEqual({
      sub: auth.customer.id,
      pub: publicationId,
      iat: issuedAt,
      exp: issuedAt + 900,
      iss: 'gatehouse-identity',
      aud: 'gatehouse-api',
      email_verified: false,
    });
    expect(auth.expiresAt).toBe(claims.exp * 1000);
  });

  it('starts its 15 minutes at the refresh that issued it', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    identity.clock.advance(20 * 60 * 1000);
    const refreshed = await identity.bus.request(IdentityRequests.Refresh, { publicationId, refreshToken: auth.refreshToken });
    const { claims } = verifyAccessToken(refreshed.accessToken, jwks);
    expect(claims.iat).toBe(Math.floor(identity.clock.now().getTime() / 1000));
    expect(claims.exp - claims.iat).toBe(900);
    expect(refreshed.expiresAt).toBe(auth.expiresAt + 20 * 60 * 1000);
  });

  it('does not verify once tampered with', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const [header, , signature] = auth.accessToken.split('.');
    const forgedClaims = Buffer.from(JSON.stringify({ sub: auth.customer.id, pub: newPublicationId() })).toString('base64url');
    expect(() => verifyAccessToken(`${header}.${forgedClaims}.${signature}`, jwks)).toThrow('signature does not verify');
  });
});
