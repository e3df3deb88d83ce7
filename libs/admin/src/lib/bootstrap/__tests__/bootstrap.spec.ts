import { AdminRequests } from '@gatehouse/contracts';
import { AppError, ConfigError, loadConfig } from '@gatehouse/platform';
import { AdminConfig } from '../../admin.config';
import { AdminHarness, BOOTSTRAP, BOOTSTRAP_ENV } from '../../__tests__/admin-harness';

jest.setTimeout(30_000);

const counts = (harness: AdminHarness) =>
  harness.query<{ staff: number; publications: number; memberships: number }>(
    `SELECT (SELECT count(*)::int FROM staff) AS staff, (SELECT count(*)::int FROM publications) AS publications,
            (SELECT count(*)::int FROM memberships) AS memberships`,
  );

async function failure(attempt: Promise<unknown>): Promise<AppError> {
  const error = await attempt.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('bootstrap of the first admin and publication', () => {
  // A real bcrypt cost, so a skipped password comparison would show in the timing.
  const env = { ...BOOTSTRAP_ENV, BCRYPT_COST: '10' };
  const harness = new AdminHarness();

  beforeAll(() => harness.start(env, 2));
  afterAll(() => harness.close());

  it('creates exactly one admin, one publication and one membership when two replicas start at once', async () => {
    expect(await counts(harness)).toEqual([{ staff: 1, publications: 1, memberships: 1 }]);
  });

  it('creates nothing more when the service starts again', async () => {
    await harness.startReplica({ ...env, BOOTSTRAP_ADMIN_EMAIL: 'someone-else@example.com' });
    expect(await counts(harness)).toEqual([{ staff: 1, publications: 1, memberships: 1 }]);
  });

  it('signs in with the bootstrap credentials, as admin of the bootstrap publication', async () => {
    const session = await harness.request(AdminRequests.CreateSession, { email: 'editor@example.COM', password: BOOTSTRAP.password });
    expect(session.staff).toEqual({ id: expect.any(String), email: 'editor@example.com', name: 'Editor' });
    expect(session.publication).toEqual({
      id: expect.any(String),
      name: BOOTSTRAP.publicationName,
      domains: ['bugle.example', '*.bugle.example'],
      selfRegistration: true,
      verifiedDomains: [],
      role: 'admin',
    });
  });

  it('stores a bcrypt hash of the password, never the password', async () => {
    const [staff] = await harness.query<{ password_hash: string }>('SELECT password_hash FROM staff');
    expect(staff.password_hash).toMatch(/^\$2[aby]\$10\$/);
    expect(staff.password_hash).not.toContain(BOOTSTRAP.password);
  });

  it('answers a wrong password and an unknown email identically, in about the same time', async () => {
    const attempt = async (email: string, password: string) => {
      const started = performance.now();
      const error = await failure(harness.request(AdminRequests.CreateSession, { email, password }));
      return { error, ms: performance.now() - started };
    };
    const wrongPassword: Array<{ error: AppError; ms: number }> = [];
    const unknownEmail: Array<{ error: AppError; ms: number }> = [];
    // Interleaved, and the fastest of eight of each: on a loaded machine a few attempts of either kind wait for a core.
    for (let i = 0; i < 8; i++) {
      wrongPassword.push(await attempt(BOOTSTRAP.email, 'not the password'));
      unknownEmail.push(await attempt('nobody@example.com', 'not the password'));
    }
    expect(wrongPassword[0].error.problem).toEqual(unknownEmail[0].error.problem);
    expect(wrongPassword[0].error.problem).toMatchObject({ status: 401, code: 'invalid_credentials' });
    const fastest = (attempts: Array<{ ms: number }>) => Math.min(...attempts.map((a) => a.ms));
    expect(fastest(unknownEmail)).toBeGreaterThan(fastest(wrongPassword) / 2);
  });
});

describe('bootstrap settings', () => {
  it('creates no one unless all four BOOTSTRAP_* values are set', async () => {
    const { BOOTSTRAP_PUBLICATION_DOMAINS: _domains, ...incomplete } = BOOTSTRAP_ENV;
    const harness = await new AdminHarness().start(incomplete);
    try {
      expect(await counts(harness)).toEqual([{ staff: 0, publications: 0, memberships: 0 }]);
      const error = await failure(harness.request(AdminRequests.CreateSession, { email: BOOTSTRAP.email, password: BOOTSTRAP.password }));
      expect(error.code).toBe('invalid_credentials');
    } finally {
      await harness.close();
    }
  });

  it('names the staff member from BOOTSTRAP_ADMIN_NAME when given', async () => {
    const harness = await new AdminHarness().start({ ...BOOTSTRAP_ENV, BOOTSTRAP_ADMIN_NAME: 'Jonah Jameson' });
    try {
      const session = await harness.request(AdminRequests.CreateSession, { email: BOOTSTRAP.email, password: BOOTSTRAP.password });
      expect(session.staff.name).toBe('Jonah Jameson');
    } finally {
      await harness.close();
    }
  });

  it('rejects a BCRYPT_COST outside 4-15 with one line naming it', () => {
    expect(() => loadConfig(AdminConfig, { BCRYPT_COST: '3' })).toThrow(ConfigError);
    expect(() => loadConfig(AdminConfig, { BCRYPT_COST: '16' })).toThrow(
      'Invalid configuration: BCRYPT_COST must be an integer from 4 to 15',
    );
    expect(loadConfig(AdminConfig, {}).BCRYPT_COST).toBe(12);
  });
});
