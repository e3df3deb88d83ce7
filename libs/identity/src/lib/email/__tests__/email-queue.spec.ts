import { MailboxRequests } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import { Client } from 'pg';
import { newPublicationId, registerCustomer, startIdentity, type IdentityUnderTest } from '../../__tests__/support/identity-under-test';

/**
 * The queue's schedule, with identity alone: nothing answers for the publication's branding and
 * no SMTP server listens, so every attempt fails and the schedule runs to its end.
 */
describe('the account email queue', () => {
  let identity: IdentityUnderTest;
  const publicationId = newPublicationId();

  beforeAll(async () => {
    identity = await startIdentity({ SMTP_URL: 'smtp://127.0.0.1:9', EMAIL_RETRY_DELAYS_SECONDS: '60' });
  });

  afterAll(async () => {
    await identity?.close();
  });

  it('tries a message again on the schedule, then gives it up and forgets its token', async () => {
    const { email } = await registerCustomer(identity.bus, publicationId);
    const list = async () => (await identity.bus.request(MailboxRequests.List, { publicationId })).items.find((m) => m.to === email);

    const first = await eventually(async () => ((await list())?.status === 'pending' && (await list())?.attempts === 1 ? list() : undefined), 20_000);
    expect(first).toMatchObject({ kind: 'email_verification', status: 'pending', delivery: null, lastError: expect.any(String) });

    // Not due again before its time.
    identity.clock.advance(59_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await list())?.attempts).toBe(1);

    identity.clock.advance(1_000);
    const last = await eventually(async () => ((await list())?.status === 'failed' ? list() : undefined), 20_000);
    expect(last).toMatchObject({ status: 'failed', attempts: 2, sentAt: null });

    const sql = new Client({ connectionString: identity.databaseUrl });
    await sql.connect();
    try {
      const { rows } = await sql.query('SELECT secrets FROM identity.email_messages WHERE to_address = $1', [email]);
      expect(rows).toEqual([{ secrets: null }]);
    } finally {
      await sql.end();
    }
  }, 60_000);
});
