import { IdentityRequests } from '@gatehouse/contracts';
import { newPublicationId, registerCustomer, startIdentity, type IdentityUnderTest } from '../../__tests__/support/identity-under-test';

const DAY = 24 * 60 * 60 * 1000;
const invalid = { code: 'refresh_token_invalid', status: 401 };

describe('refreshing a customer session', () => {
  let identity: IdentityUnderTest;
  const publicationId = newPublicationId();
  const refresh = (refreshToken: string, publication = publicationId) =>
    identity.bus.request(IdentityRequests.Refresh, { publicationId: publication, refreshToken });

  beforeAll(async () => {
    identity = await startIdentity();
  });

  afterAll(() => identity?.close());

  it('answers a new pair for the same customer and uses the presented token up', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const refreshed = await refresh(auth.refreshToken);
    expect(refreshed.customer).toEqual(auth.customer);
    expect(refreshed.refreshToken).not.toBe(auth.refreshToken);
    expect(refreshed.refreshToken).toMatch(/^[\w-]{43,}$/);
    await expect(refresh(auth.refreshToken)).rejects.toMatchObject(invalid);
  });

  it('keeps rotating along the family', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    let token = auth.refreshToken;
    for (let i = 0; i < 3; i++) token = (await refresh(token)).refreshToken;
    await expect(refresh(token)).resolves.toMatchObject({ customer: auth.customer });
  });

  it('revokes the whole family when a used token comes back', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const newest = (await refresh(auth.refreshToken)).refreshToken;
    await expect(refresh(auth.refreshToken)).rejects.toMatchObject(invalid);
    await expect(refresh(newest)).rejects.toMatchObject(invalid);
  });

  it('leaves the customer’s other sessions alone when one family is revoked', async () => {
    const { auth, email, password } = await registerCustomer(identity.bus, publicationId);
    const otherSession = await identity.bus.request(IdentityRequests.Login, { publicationId, email, password });
    await refresh(auth.refreshToken);
    await expect(refresh(auth.refreshToken)).rejects.toMatchObject(invalid);
    await expect(refresh(otherSession.refreshToken)).resolves.toMatchObject({ customer: auth.customer });
  });

  it('lets exactly one of two simultaneous refreshes of one token win', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const outcomes = await Promise.allSettled([refresh(auth.refreshToken), refresh(auth.refreshToken)]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o) => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ reason: invalid });
  });

  it('treats the loser of a simultaneous refresh as reuse: the winner’s new token is revoked too', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const outcomes = await Promise.allSettled([refresh(auth.refreshToken), refresh(auth.refreshToken)]);
    const winner = outcomes.find((o) => o.status === 'fulfilled');
    await expect(refresh(winner!.value.refreshToken)).rejects.toMatchObject(invalid);
  });

  it('still honours a token after 29 days', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    identity.clock.advance(29 * DAY);
    await expect(refresh(auth.refreshToken)).resolves.toMatchObject({ customer: auth.customer });
  });

  it('refuses a token older than 30 days', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    identity.clock.advance(30 * DAY + 1_000);
    await expect(refresh(auth.refreshToken)).rejects.toMatchObject(invalid);
  });

  it('gives every refreshed token 30 days of its own', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    identity.clock.advance(20 * DAY);
    const refreshed = await refresh(auth.refreshToken);
    identity.clock.advance(20 * DAY);
    await expect(refresh(refreshed.refreshToken)).resolves.toMatchObject({ customer: auth.customer });
  });

  it('does not know a token of another publication, and leaves it working there', async () => {
    const otherPublicationId = newPublicationId();
    const { auth } = await registerCustomer(identity.bus, otherPublicationId);
    await expect(refresh(auth.refreshToken)).rejects.toMatchObject(invalid);
    await expect(refresh(auth.refreshToken, otherPublicationId)).resolves.toMatchObject({ customer: auth.customer });
  });

  it('refuses a token it never issued', async () => {
    await expect(refresh('not-a-token-we-issued')).rejects.toMatchObject(invalid);
    await expect(refresh('')).rejects.toMatchObject(invalid);
  });
});
