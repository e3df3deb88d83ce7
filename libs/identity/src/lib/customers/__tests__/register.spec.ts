import { IdentityRequests } from '@gatehouse/contracts';
import { newPublicationId, startIdentity, type IdentityUnderTest } from '../../__tests__/support/identity-under-test';

describe('registering a customer', () => {
  let identity: IdentityUnderTest;
  const publicationId = newPublicationId();
  const register = (email: string, overrides: { publicationId?: string; password?: string } = {}) =>
    identity.bus.request(IdentityRequests.Register, { publicationId, email, password: 'a fine password', name: 'Ann Reader', ...overrides });

  beforeAll(async () => {
    identity = await startIdentity();
  });

  afterAll(() => identity?.close());

  it('answers the auth result with the new customer', async () => {
    const result = await register('ann@example.com');
    expect(result).toEqual({
      accessToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      refreshToken: expect.stringMatching(/^[\w-]{43,}$/),
      expiresAt: expect.any(Number),
      customer: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: 'ann@example.com', name: 'Ann Reader', emailVerified: false },
    });
  });

  it('stores the email trimmed and lower-cased', async () => {
    const result = await register('  Bea.Reader@Example.COM ');
    expect(result.customer.email).toBe('bea.reader@example.com');
  });

  it('refuses an email already registered in the publication, in any letter case', async () => {
    await register('cara@example.com');
    await expect(register('cara@example.com')).rejects.toMatchObject({ code: 'email_taken', status: 409 });
    await expect(register(' CARA@example.com')).rejects.toMatchObject({ code: 'email_taken', status: 409 });
  });

  it('lets only one of two simultaneous registrations of one email through', async () => {
    const outcomes = await Promise.allSettled([register('dana@example.com'), register('Dana@example.com')]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'email_taken', status: 409 } });
  });

  it('accepts the same email in another publication as another customer', async () => {
    const first = await register('eve@example.com');
    const second = await register('eve@example.com', { publicationId: newPublicationId() });
    expect(second.customer.id).not.toBe(first.customer.id);
  });

  it('refuses a password over 72 bytes of UTF-8, which bcrypt would cut short', async () => {
    const seventyFourBytes = 'é'.repeat(37);
    await expect(register('fay@example.com', { password: seventyFourBytes })).rejects.toMatchObject({
      code: 'validation_failed',
      status: 400,
      problem: { errors: [{ field: 'password', message: expect.any(String) }] },
    });
  });

  it('refuses a password under 8 bytes', async () => {
    await expect(register('gil@example.com', { password: 'short' })).rejects.toMatchObject({ code: 'validation_failed', status: 400 });
  });

  it('accepts a password of exactly 72 bytes', async () => {
    await expect(register('hal@example.com', { password: 'é'.repeat(36) })).resolves.toMatchObject({ customer: { email: 'hal@example.com' } });
  });
});
