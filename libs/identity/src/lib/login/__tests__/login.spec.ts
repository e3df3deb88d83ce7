import { IdentityRequests } from '@gatehouse/contracts';
import { querySchema } from '@gatehouse/testing';
import { failureOf, newPublicationId, registerCustomer, startIdentity, type IdentityUnderTest } from '../../__tests__/support/identity-under-test';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

describe('logging a customer in', () => {
  let identity: IdentityUnderTest;
  const publicationId = newPublicationId();
  const login = (email: string, password: string, publication = publicationId) =>
    identity.bus.request(IdentityRequests.Login, { publicationId: publication, email, password });
  const failTimes = async (times: number, email: string) => {
    for (let i = 0; i < times; i++) {
      await expect(login(email, 'not the password')).rejects.toMatchObject({ code: 'invalid_credentials', status: 401 });
    }
  };

  beforeAll(async () => {
    identity = await startIdentity();
  });

  afterAll(() => identity?.close());

  it('answers the auth result of the customer, with a session of its own', async () => {
    const { auth, email, password } = await registerCustomer(identity.bus, publicationId);
    const result = await login(` ${email.toUpperCase()}`, password);
    expect(result.customer).toEqual(auth.customer);
    expect(result.refreshToken).not.toBe(auth.refreshToken);
    expect(result.expiresAt).toBe(auth.expiresAt);
  });

  it('answers a wrong password and an unknown email identically', async () => {
    const { email } = await registerCustomer(identity.bus, publicationId);
    const wrongPassword = await failureOf(login(email, 'not the password'));
    const unknownEmail = await failureOf(login('nobody@example.com', 'not the password'));
    expect(wrongPassword).toEqual({ code: 'invalid_credentials', status: 401, detail: expect.any(String) });
    expect(unknownEmail).toEqual(wrongPassword);
  });

  it('does not know a customer of another publication', async () => {
    const { email, password } = await registerCustomer(identity.bus, newPublicationId());
    await expect(login(email, password)).rejects.toMatchObject({ code: 'invalid_credentials', status: 401 });
  });

  it('refuses the 11th attempt within 15 minutes with 429, even with the right password, then lets it in again', async () => {
    const { email, password } = await registerCustomer(identity.bus, publicationId);
    await failTimes(10, email);
    const refused = await failureOf(login(email, password));
    expect(refused).toMatchObject({ code: 'rate_limited', status: 429 });
    const seconds = Number(/in (\d+) seconds/.exec(refused.detail)?.[1]);
    expect(seconds).toBeGreaterThan(FIFTEEN_MINUTES / 1000 - 60);
    expect(seconds).toBeLessThanOrEqual(FIFTEEN_MINUTES / 1000);
    // The counters keep their window's end in epoch milliseconds (rate-limiter-flexible reads the system clock): end it now.
    await querySchema(identity.databaseUrl, 'identity', 'UPDATE throttle_counters SET expire = $1', [Date.now()]);
    await expect(login(email, password)).resolves.toMatchObject({ customer: { email } });
  });

  it('does not count successful logins as failures', async () => {
    const { email, password } = await registerCustomer(identity.bus, publicationId);
    await failTimes(9, email);
    for (let i = 0; i < 3; i++) await expect(login(email, password)).resolves.toMatchObject({ customer: { email } });
    await failTimes(1, email);
    await expect(login(email, password)).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('throttles an email whether or not it is registered, and each email on its own', async () => {
    await failTimes(10, 'ghost@example.com');
    await expect(login('ghost@example.com', 'anything at all')).rejects.toMatchObject({ code: 'rate_limited' });
    const { email, password } = await registerCustomer(identity.bus, publicationId);
    await expect(login(email, password)).resolves.toMatchObject({ customer: { email } });
  });

  it('keeps concurrent guesses within the limit', async () => {
    const { email, password } = await registerCustomer(identity.bus, publicationId);
    const guesses = await Promise.allSettled(Array.from({ length: 15 }, () => login(email, 'not the password')));
    const codes = guesses.map((g) => (g.status === 'rejected' ? (g.reason as { code: string }).code : 'ok'));
    expect(codes.filter((c) => c === 'invalid_credentials')).toHaveLength(10);
    expect(codes.filter((c) => c === 'rate_limited')).toHaveLength(5);
    await expect(login(email, password)).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
