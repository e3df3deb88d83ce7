import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { connect as connectTcp, type Socket } from 'node:net';
import { Client } from 'pg';
import { IdentityRequests, type CustomerAuthResult } from '@gatehouse/contracts';
import { BusClient, createRequestClient, type BusOptions } from '@gatehouse/bus';
import { databaseOf, type RunningService } from '@gatehouse/runtime';
import { migrateServiceSchema } from '@gatehouse/db';
import { identityService } from '@gatehouse/identity';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { call } from './support/http';
import { startServiceOverNats } from './support/system';
import { exited, freePort, portOpen, ROOT } from './support/processes';

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
    await migrateServiceSchema(databaseOf(identityService, db.url));
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

const JWKS = '/api/v1/auth/.well-known/jwks.json';
const get = (path: string, requestId: string) => `GET ${path} HTTP/1.1\r\nHost: gateway\r\nX-Request-Id: ${requestId}\r\n\r\n`;

/** Everything a kept-alive connection receives until the server closes it. */
function received(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  return new Promise((resolve, reject) => {
    socket.once('close', () => resolve(text));
    socket.once('error', reject);
  });
}

/** The answer starting at `start` of what a connection received: status line, headers (lower-cased names), body. */
function answerAt(text: string, start: number): { status: string; headers: Record<string, string>; body: string } {
  const headEnd = text.indexOf('\r\n\r\n', start);
  const [status, ...lines] = text.slice(start, headEnd).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status, headers, body: text.slice(headEnd + 4, headEnd + 4 + Number(headers['content-length'])) };
}

/** SIGTERM to the gateway: readiness fails at once, it keeps serving through the delay, answers what it holds, exits. */
describe('the gateway receiving SIGTERM', () => {
  const namespace = uniqueNamespace('drain-gw');
  let db: TestDatabase;
  let identity: RunningService;
  let gateway: ChildProcess;
  let output = '';
  let base: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    identity = await startServiceOverNats(identityService, db.url, namespace);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    gateway = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/gateway/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NATS_URL: testNatsUrl(),
        BUS_NAMESPACE: namespace,
        PORT: String(port),
        SHUTDOWN_DELAY_MS: '1500',
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    gateway.stdout!.on('data', (chunk) => (output += chunk));
    gateway.stderr!.on('data', (chunk) => (output += chunk));
    await eventually(async () => ((await call(base, '/readyz')).status === 200 ? true : undefined), 60_000).catch((err) => {
      throw new Error(`the gateway did not become ready: ${err}\n${output}`);
    });
  });

  afterAll(async () => {
    if (gateway && gateway.exitCode === null) gateway.kill('SIGKILL');
    await identity?.close();
    await db?.drop();
  });

  it('fails readiness during the delay, still serves, answers the requests in flight, refuses new ones as problem details while closing, and exits within delay and grace', async () => {
    const expected = await call(base, '/api/v1/auth/.well-known/jwks.json');
    expect(expected.status).toBe(200);
    // A stalled database holds the key-set requests in flight past the delay.
    const lock = new Client({ connectionString: db.url });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE identity.signing_keys IN ACCESS EXCLUSIVE MODE');
    const inFlight = Array.from({ length: 5 }, () => call(base, '/api/v1/auth/.well-known/jwks.json'));
    // A kept-alive connection with a request in flight: the gateway cannot close it before answering.
    const port = Number(new URL(base).port);
    const connection = connectTcp(port, '127.0.0.1');
    const answers = received(connection);
    connection.write(get(JWKS, 'before-closing'));
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    gateway.kill('SIGTERM');

    const ready = await eventually(async () => {
      const res = await call(base, '/readyz');
      return res.status === 503 ? res : undefined;
    }, 1_000);
    expect(ready.body).toMatchObject({ status: 'down', checks: { shutdown: 'down' } });
    // Still serving while the load balancer catches up.
    expect((await call(base, '/healthz')).status).toBe(200);

    await new Promise((r) => setTimeout(r, 2_000));
    expect(gateway.exitCode).toBeNull();
    // Past the delay the gateway is closing (it takes no new connection); a request on the open one is refused.
    await eventually(async () => ((await portOpen(port)) ? undefined : true), 10_000);
    connection.write(get(JWKS, 'while-closing'));
    await new Promise((r) => setTimeout(r, 300));
    await lock.query('COMMIT');
    await lock.end();
    for (const answer of await Promise.all(inFlight)) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(expected.body);
    }
    const text = await answers;
    expect(answerAt(text, 0)).toMatchObject({ status: 'HTTP/1.1 200 OK', headers: { 'x-request-id': 'before-closing' } });
    const closing = answerAt(text, text.indexOf('HTTP/1.1 503'));
    expect(closing.headers).toMatchObject({
      'content-type': 'application/problem+json; charset=utf-8',
      'x-request-id': 'while-closing',
      'retry-after': '1',
      connection: 'close',
    });
    expect(JSON.parse(closing.body)).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(await exited(gateway)).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(1_500 + GRACE_MS);
  });
});
