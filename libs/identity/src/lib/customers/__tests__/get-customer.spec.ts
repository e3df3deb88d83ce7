import { IdentityRequests } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { newPublicationId, registerCustomer, startIdentity, type IdentityUnderTest } from '../../__tests__/support/identity-under-test';

describe('getting a customer (me)', () => {
  let identity: IdentityUnderTest;
  const publicationId = newPublicationId();

  beforeAll(async () => {
    identity = await startIdentity();
  });

  afterAll(() => identity?.close());

  it('answers the profile with the time of registration', async () => {
    const registeredAt = identity.clock.now();
    const { auth, email } = await registerCustomer(identity.bus, publicationId);
    identity.clock.advance(60_000);
    const profile = await identity.bus.request(IdentityRequests.GetCustomer, { publicationId, customerId: auth.customer.id });
    expect(profile).toEqual({ id: auth.customer.id, email, name: 'A Reader', emailVerified: false, createdAt: registeredAt.toISOString() });
  });

  it('answers 404 for a customer of another publication', async () => {
    const { auth } = await registerCustomer(identity.bus, newPublicationId());
    await expect(identity.bus.request(IdentityRequests.GetCustomer, { publicationId, customerId: auth.customer.id })).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    });
  });

  it('answers 404 for an unknown customer', async () => {
    await expect(identity.bus.request(IdentityRequests.GetCustomer, { publicationId, customerId: randomUUID() })).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    });
  });
});
