import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { IdentityRequests, type CustomerAuthResult } from '@gatehouse/contracts';
import { BusClient, createRequestClient, type BusOptions } from '@gatehouse/bus';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { call } from './support/http';
import { exited, freePort, ROOT } from './support/processes';

const GRACE_MS = 15_000;
const IN_FLIGHT = 16;

jest.setTimeout(120_000);

/** SIGTERM to a service deployed alone (its own process), with registrations in its hands. */
describe('a service receiving SIGTERM', () => {
  const namespace = uniqueNamespace('drain');
  let db: TestDatabase;
  let child: ChildProcess;
  let output = '';
  let probes: string;
  let bus: BusClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    const healthPort = await freePort();
    probes = `http://127.0.0.1:${healthPort}`;
    child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/identity/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NATS_URL: testNatsUrl(),
        DATABASE_URL: db.url,
        BUS_NAMESPACE: namespace,
        HEALTH_PORT: String(healthPort),
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
        // Slow enough hashing that registrations are still being worked on when the signal comes.
        BCRYPT_COST: '11',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    await eventually(async () => ((await call(probes, '/readyz')).status === 200 ? true : undefined), 60_000).catch((err) => {
      throw new Error(`identity did not become ready: ${err}\n${output}`);
    });
    const options: BusOptions = { service: 'gateway', namespace, transport: { kind: 'nats', servers: [testNatsUrl()] }, requestTimeoutMs: 60_000 };
    bus = new BusClient(options, createRequestClient(options));
  });

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await bus?.onApplicationShutdown();
    await db?.drop();
  });

  it('answers every request it accepted, saves each, and exits within the grace period', async () => {
    const publicationId = randomUUID();
    let answered = 0;
    const requests = Array.from({ length: IN_FLIGHT }, (_, i) =>
      bus
        .request(IdentityRequests.Register, { publicationId, email: `reader${i}@example.com`, password: 'correct horse battery', name: `Reader ${i}` })
        .then((result: CustomerAuthResult) => {
          answered++;
          return result;
        }),
    );
    await eventually(() => (answered > 0 ? true : undefined), 30_000);
    const signalled = Date.now();
    child.kill('SIGTERM');
    // The signal came while most registrations were still being worked on.
    expect(answered).toBeLessThan(IN_FLIGHT);

    const results = await Promise.all(requests);
    expect(results.map((r) => r.customer.email).sort()).toEqual(Array.from({ length: IN_FLIGHT }, (_, i) => `reader${i}@example.com`).sort());
    for (const result of results) expect(result.accessToken).toEqual(expect.any(String));

    expect(await exited(child)).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(GRACE_MS);

    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const { rows } = await pg.query<{ count: string }>('SELECT count(*) FROM identity.customers WHERE publication_id = $1', [publicationId]);
      expect(Number(rows[0].count)).toBe(IN_FLIGHT);
    } finally {
      await pg.end();
    }
  });
});
