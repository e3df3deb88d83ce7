import { IdentityRequests } from '@gatehouse/contracts';
import { newPublicationId, registerCustomer, startIdentity, type IdentityUnderTest } from '../../__tests__/support/identity-under-test';

const DAY = 24 * 60 * 60 * 1000;
/** REFRESH_REUSE_GRACE_SECONDS by default. */
const GRACE_MS = 10_000;
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
    await expect(refresh(auth.refreshToken)).rejects.toMatchObject({ status: 401, code: 'token_invalid' });
  });

  it('keeps rotating along the family', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    let token = auth.refreshToken;
    for (let i = 0; i < 3; i++) token = (await refresh(token)).refreshToken;
    await expect(refresh(token)).resolves.toMatchObject({ customer: auth.customer });
  });

  it('revokes the whole family when a used token comes back after the grace window', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const newest = (await refresh(auth.refreshToken)).refreshToken;
    identity.clock.advance(GRACE_MS + 1_000);
    await expect(refresh(auth.refreshToken)).rejects.toMatchObject(invalid);
    await expect(refresh(newest)).rejects.toMatchObject(invalid);
  });

  it('leaves the customer’s other sessions alone when one family is revoked', async () => {
    const { auth, email, password } = await registerCustomer(identity.bus, publicationId);
    const otherSession = await identity.bus.request(IdentityRequests.Login, { publicationId, email, password });
    await refresh(auth.refreshToken);
    identity.clock.advance(GRACE_MS + 1_000);
    await expect(refresh(auth.refreshToken)).rejects.toMatchObject(invalid);
    await expect(refresh(otherSession.refreshToken)).resolves.toMatchObject({ customer: auth.customer });
  });

  it('lets exactly one of four simultaneous refreshes win; the losers neither win nor revoke the winner (decisions D3)', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map(() => refresh(auth.refreshToken)));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o) => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(3);
    for (const loser of lost) expect(loser).toMatchObject({ reason: { status: 401, code: 'token_invalid' } });
    const next = await refresh(won[0].value.refreshToken);
    await expect(refresh(next.refreshToken)).resolves.toMatchObject({ customer: auth.customer });
  });

  it('answers a used token within the grace window with token_invalid, and revokes nothing', async () => {
    const { auth } = await registerCustomer(identity.bus, publicationId);
    const winner = await refresh(auth.refreshToken);
    identity.clock.advance(GRACE_MS - 1_000);
    await expect(refresh(auth.refreshToken)).rejects.toMatchObject({ status: 401, code: 'token_invalid' });
    await expect(refresh(winner.refreshToken)).resolves.toMatchObject({ customer: auth.customer });
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
