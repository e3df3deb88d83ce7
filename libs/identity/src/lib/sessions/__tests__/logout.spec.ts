import { IdentityRequests } from '@gatehouse/contracts';
import { newPublicationId, registerCustomer, startIdentity, type IdentityUnderTest } from '../../__tests__/support/identity-under-test';

const invalid = { code: 'refresh_token_invalid', status: 401 };

describe('logging a customer out', () => {
  let identity: IdentityUnderTest;
  const publicationId = newPublicationId();
  const refresh = (refreshToken: string, publication = publicationId) =>
    identity.bus.request(IdentityRequests.Refresh, { publicationId: publication, refreshToken });
  const logout = (refreshToken: string, publication = publicationId) =>
    identity.bus.request(IdentityRequests.Logout, { publicationId: publication, refreshToken });

  beforeAll(async () => {
    identity = await startIdentity();
  });

  afterAll(() => identity?.close());

  it('revokes the token’s family', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const newest = (await refresh(auth.refreshToken)).refreshToken;
    await expect(logout(newest)).resolves.toEqual({ loggedOut: true });
    await expect(refresh(newest)).rejects.toMatchObject(invalid);
  });

  it('revokes the family from an older, already used token as well', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const newest = (await refresh(auth.refreshToken)).refreshToken;
    await expect(logout(auth.refreshToken)).resolves.toEqual({ loggedOut: true });
    await expect(refresh(newest)).rejects.toMatchObject(invalid);
  });

  it('ends only that session', async () => {
    const { auth, email, password } = await registerCustomer(identity.bus, publicationId);
    const otherSession = await identity.bus.request(IdentityRequests.Login, { publicationId, email, password });
    await logout(auth.refreshToken);
    await expect(refresh(otherSession.refreshToken)).resolves.toMatchObject({ customer: auth.customer });
  });

  it('answers logged out for a token it does not know, or knows twice', async () => {
    await expect(logout('not-a-token-we-issued')).resolves.toEqual({ loggedOut: true });
    const { auth } = await registerCustomer(identity.bus, publicationId);
    await logout(auth.refreshToken);
    await expect(logout(auth.refreshToken)).resolves.toEqual({ loggedOut: true });
  });

  it('does not end a session of another publication', async () => {
    const otherPublicationId = newPublicationId();
    const { auth } = await registerCustomer(identity.bus, otherPublicationId);
    await expect(logout(auth.refreshToken)).resolves.toEqual({ loggedOut: true });
    await expect(refresh(auth.refreshToken, otherPublicationId)).resolves.toMatchObject({ customer: auth.customer });
  });
});
