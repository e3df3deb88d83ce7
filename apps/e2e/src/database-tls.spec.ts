import { spawn } from 'node:child_process';
import { brandingService } from '@gatehouse/branding';
import { deleteEventStream } from '@gatehouse/bus';
import { openServiceDatabase } from '@gatehouse/db';
import { loadConfig } from '@gatehouse/platform';
import { databaseOf, startService, type RunningService } from '@gatehouse/runtime';
import { testNatsUrl, uniqueNamespace } from '@gatehouse/testing';
import { TestCertificates } from './support/certificates';
import { exited, PrivatePostgres, ROOT } from './support/processes';

jest.setTimeout(180_000);

/** The migration step as a bare machine runs it (`npm run migrate`): its exit code and output. */
async function migrate(env: Record<string, string>): Promise<[number | NodeJS.Signals, string]> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/local/src/migrate.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return [await exited(child), output];
}

/**
 * A PostgreSQL whose certificate a private CA signed (docs/operations.md, "TLS to PostgreSQL"):
 * trusted with DATABASE_CA_FILE, refused without it.
 */
describe('PostgreSQL over TLS with a private CA', () => {
  const namespace = uniqueNamespace('pgtls');
  let certificates: TestCertificates;
  let pg: PrivatePostgres;
  let service: RunningService | undefined;
  const url = (sslmode: string) => `${pg.url()}?sslmode=${sslmode}`;

  beforeAll(async () => {
    certificates = await TestCertificates.create();
    pg = await PrivatePostgres.start({ tls: certificates.server });
  });

  afterAll(async () => {
    await service?.close();
    await pg?.destroy();
    certificates?.destroy();
    await deleteEventStream([testNatsUrl()], namespace);
  });

  it('is refused without the CA bundle: the migration step fails on the untrusted certificate', async () => {
    const [code, output] = await migrate({ DATABASE_URL: url('verify-full') });
    expect(code).not.toBe(0);
    expect(output).toMatch(/unable to verify the first certificate/);
  });

  it('runs the migration step and a service with sslmode=verify-full and DATABASE_CA_FILE, every connection encrypted', async () => {
    expect(await migrate({ DATABASE_URL: url('verify-full'), DATABASE_CA_FILE: certificates.caFile })).toEqual([0, expect.any(String)]);

    const env = { LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent', NATS_URL: testNatsUrl(), BUS_NAMESPACE: namespace, DATABASE_URL: url('verify-full'), DATABASE_CA_FILE: certificates.caFile };
    service = await startService(brandingService, { config: loadConfig(brandingService.config, env), transport: { kind: 'nats', servers: [testNatsUrl()] }, databaseUrl: env.DATABASE_URL });

    const [connections, encrypted] = (await pg.psql('postgres', 'SELECT count(*), bool_and(s.ssl) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.client_addr IS NOT NULL')).trim().split('|');
    expect(Number(connections)).toBeGreaterThan(0);
    expect(encrypted).toBe('t');
  });

  it('takes sslmode=require with the CA bundle as well (pg checks the certificate and its host name as verify-full does)', async () => {
    const dataSource = await openServiceDatabase(databaseOf(brandingService, url('require'), certificates.caFile));
    await expect(dataSource.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).resolves.toEqual([{ ssl: true }]);
    await dataSource.destroy();
  });

  it('refuses a CA bundle that cannot be read, naming it', async () => {
    await expect(openServiceDatabase(databaseOf(brandingService, url('verify-full'), '/nonexistent/ca.crt'))).rejects.toThrow('The database CA bundle /nonexistent/ca.crt cannot be read');
  });
});
