import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { accessService } from '@gatehouse/access';
import { adminService } from '@gatehouse/admin';
import { brandingService } from '@gatehouse/branding';
import { migrateServiceSchema } from '@gatehouse/db';
import { identityService } from '@gatehouse/identity';
import { loadConfig, type ServiceDefinition } from '@gatehouse/platform';
import { databaseOf, startService, type RunningService } from '@gatehouse/runtime';
import { eventually, uniqueNamespace } from '@gatehouse/testing';
import { call, type Answer } from './support/http';
import { exited, freePort, PrivateNatsServer, PrivatePostgres, PrivateRedis, ROOT } from './support/processes';
import { adminSession, bootstrapEnv } from './support/staff';
import { startGatewayOverNats, type TestGateway } from './support/system';

jest.setTimeout(300_000);

const SITE = 'https://faults.example';
const ENV = bootstrapEnv({ name: 'Faults Gazette', domains: ['faults.example'] });
/** The readiness probe's period in the manifests (k8s/base: periodSeconds 5). */
const PROBE_PERIOD_MS = 5_000;
/** A bus request's timeout (DEFAULT_REQUEST_TIMEOUT_MS): a check sent to a frozen replica is answered 503 then. */
const BUS_TIMEOUT_MS = 5_000;
/** How long the gateway waits for one Redis call here: a probe that waited on frozen Redis would take at least this. */
const REDIS_TIMEOUT_MS = 500;

interface ServiceProcess {
  child: ChildProcess;
  /** Its /healthz, /readyz and /metrics (HEALTH_PORT). */
  probes: string;
  output(): string;
}

/** A service run as a deployment runs it: its own process, `apps/<app>/src/main.ts`, configured by the environment. */
async function spawnService(app: string, env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', '@swc-node/register', `apps/${app}/src/main.ts`], {
    cwd: ROOT,
    env: { ...process.env, ...ENV, HEALTH_PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, probes: `http://127.0.0.1:${port}`, output: () => output };
}

/** Whether the probe at `url` answers `status` (a refused connection is no answer). */
async function answers(base: string, path: string, status: number): Promise<true | undefined> {
  return (await call(base, path).catch(() => undefined))?.status === status ? true : undefined;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

/**
 * Faults of the servers a deployment depends on, each a server of the test's own: Redis frozen
 * and stopped, PostgreSQL stopped under a running service and while one starts, one of two access
 * replicas frozen, NATS frozen with writes in flight and absent while a service starts. Identity
 * runs as its own process, so "the service survived" is its process still running.
 */
describe('faults of Redis, PostgreSQL and NATS', () => {
  const namespace = uniqueNamespace('faults');
  let nats: PrivateNatsServer;
  let pg: PrivatePostgres;
  let redis: PrivateRedis;
  let identity: ChildProcess;
  let identityProcess: ServiceProcess;
  let identityProbes: string;
  let gatewayOps: string;
  let gateway: TestGateway;
  const services: RunningService[] = [];
  let session = '';
  let publishableKey = '';

  const inProcess = (definition: ServiceDefinition<any>, env: Record<string, string> = {}) =>
    startService(definition, {
      config: loadConfig(definition.config, { LOG_LEVEL: 'silent', NATS_URL: nats.url, BUS_NAMESPACE: namespace, ...ENV, ...env }),
      transport: { kind: 'nats', servers: [nats.url] },
      databaseUrl: pg.url(),
      migrate: true,
    });
  const api = (path: string, options: Parameters<typeof call>[2] = {}): Promise<Answer> => call(gateway.url, `/api/v1${path}`, options);
  const register = (email = `reader-${randomUUID()}@example.com`) => api('/auth/customers/register', { key: publishableKey, body: { email, password: 'reader-password', name: 'Reader' } });
  const check = (path: string) => api(`/access/check?${new URLSearchParams({ url: `${SITE}${path}` })}`, { key: publishableKey });
  const customersNamed = async (emails: string[]) => {
    const sql = new Client({ connectionString: pg.url() });
    await sql.connect();
    try {
      return (await sql.query('SELECT email FROM identity.customers WHERE email = ANY($1)', [emails])).rows.length;
    } finally {
      await sql.end();
    }
  };

  beforeAll(async () => {
    [nats, pg, redis] = await Promise.all([PrivateNatsServer.start(), PrivatePostgres.start(), PrivateRedis.start()]);
    await migrateServiceSchema(databaseOf(identityService, pg.url()));
    const gatewayPort = await freePort();
    gatewayOps = `http://127.0.0.1:${gatewayPort}`;
    identityProcess = await spawnService('identity', { NATS_URL: nats.url, DATABASE_URL: pg.url(), BUS_NAMESPACE: namespace });
    ({ child: identity, probes: identityProbes } = identityProcess);
    services.push(...(await Promise.all([inProcess(adminService), inProcess(accessService, { ENTITLEMENTS_TIMEOUT_MS: '1000' })])));
    gateway = await startGatewayOverNats(namespace, { NATS_URL: nats.url, REDIS_URL: redis.url, REDIS_TIMEOUT_MS: String(REDIS_TIMEOUT_MS), HEALTH_PORT: String(gatewayPort), TRUST_PROXY: '1' });
    await eventually(async () => ((await call(identityProbes, '/readyz')).status === 200 ? true : undefined), 60_000).catch((err) => {
      throw new Error(`identity did not become ready: ${err}\n${identityProcess.output()}`);
    });
    ({ session } = await adminSession(gateway.url));
    publishableKey = (await api('/admin/api-keys', { session, body: { name: 'faults' } })).body.publishableKey;
    expect((await api('/admin/paywalls', { session, body: { name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } } })).status).toBe(201);
    // A newsletter wall: the gateway cannot decide it (a pass to look up), so each of its checks goes to access.
    expect((await api('/admin/paywalls', { session, body: { name: 'Letters', type: 'newsletter', match: { include: ['/letters/**'] } } })).status).toBe(201);
    // The access check's rules and the key are in memory from here on.
    await eventually(async () => ((await check('/premium/a')).body.granted === false ? true : undefined));
  });

  afterAll(async () => {
    if (identity && identity.exitCode === null) identity.kill('SIGKILL');
    await gateway?.close();
    for (const service of services) await service.close();
    await Promise.all([nats?.destroy(), pg?.destroy(), redis?.stop()]);
  });

  it('serves Prometheus metrics per process, on its operations port', async () => {
    expect((await api('/auth/.well-known/jwks.json')).status).toBe(200);
    const gatewayMetrics = String((await call(gatewayOps, '/metrics')).body);
    expect(gatewayMetrics).toMatch(/^gatehouse_http_request_duration_seconds_count\{route_class="auth",method="GET",status="200"\} [1-9]/m);
    expect(gatewayMetrics).toMatch(/^gatehouse_bus_request_duration_seconds_count\{pattern="identity\.[^"]+",outcome="ok"\} [1-9]/m);
    expect(gatewayMetrics).toMatch(/^gatehouse_process_resident_memory_bytes \d+/m);
    // The checks of beforeAll: the hard paywall's answered by the gateway from memory.
    expect(gatewayMetrics).toMatch(/^gatehouse_access_checks_total\{decided_by="gateway",reason="blocked"\} [1-9]/m);
    const identityMetrics = String((await call(identityProbes, '/metrics')).body);
    expect(identityMetrics).toMatch(/^gatehouse_db_pool_connections\{service="identity",state="total"\} [1-9]/m);
    expect(identityMetrics).toMatch(/^gatehouse_outbox_pending_events\{service="identity"\} \d+/m);
    expect(identityMetrics).toMatch(/^gatehouse_outbox_lag_seconds\{service="identity"\} \d/m);
    expect(identityMetrics).toMatch(/^gatehouse_bus_queue_group_member\{service="identity"\} 1/m);
  });

  it('keeps the gateway answering, probes within 100 ms and rate limits per replica, while Redis is frozen or stopped', async () => {
    const metric = async () => /^gatehouse_rate_limit_fallback (\d)/m.exec(String((await call(gatewayOps, '/metrics')).body))?.[1];
    expect((await api('/auth/.well-known/jwks.json')).headers.get('x-ratelimit-limit')).toBe('200');
    expect(await metric()).toBe('0');
    // The public port does not serve the metrics.
    expect((await call(gateway.url, '/metrics')).status).toBe(404);

    for (const outage of ['frozen', 'stopped'] as const) {
      if (outage === 'frozen') redis.freeze();
      else await redis.stop();
      const jwks = await api('/auth/.well-known/jwks.json');
      expect(jwks.status).toBe(200);
      expect(jwks.headers.get('x-ratelimit-limit')).toBe('200');
      const probes: number[] = [];
      for (let i = 0; i < 20; i++) {
        for (const path of ['/healthz', '/readyz']) {
          const [answer, ms] = await timed(() => call(gateway.url, path));
          expect(answer.status).toBe(200);
          probes.push(ms);
        }
      }
      // Probes never wait on Redis: not one took as long as a single Redis call is allowed to (REDIS_TIMEOUT_MS),
      // and the typical probe answers within 100 ms (a loaded machine's pause may stretch the odd one).
      probes.sort((a, b) => a - b);
      expect(probes[probes.length - 1]).toBeLessThan(REDIS_TIMEOUT_MS);
      expect(probes[Math.floor(probes.length / 2)]).toBeLessThan(100);
      const [, apiMs] = await timed(() => api('/auth/.well-known/jwks.json'));
      expect(apiMs).toBeLessThan(1_000);
      expect(await metric()).toBe('1');
      // Still limited, counted in this replica's memory: one address's 201st call in a window is refused
      // (within 402 calls, in case a window ends meanwhile).
      const address = { 'X-Forwarded-For': `198.51.100.${outage === 'frozen' ? 1 : 2}` };
      let calls = 0;
      while (calls < 402 && (await api('/no-such-route', { headers: address })).status !== 429) calls++;
      expect(calls).toBeGreaterThanOrEqual(200);
      expect(calls).toBeLessThan(402);
      if (outage === 'frozen') redis.thaw();
    }
    await redis.resume();
    await eventually(async () => {
      await api('/auth/.well-known/jwks.json');
      return (await metric()) === '0' ? true : undefined;
    }, 15_000);
  });

  it('survives PostgreSQL going away: 503 for writes, checks from memory, and back by itself', async () => {
    const pid = identity.pid;
    expect((await register()).status).toBe(201);
    await pg.stop();
    const write = await register();
    expect(write.status).toBe(503);
    expect(write.body).toMatchObject({ status: 503, code: 'service_unavailable' });
    // Access decides from memory what it can.
    const premium = await check('/premium/b');
    expect(premium.status).toBe(200);
    expect(premium.body.granted).toBe(false);
    const ready = await eventually(async () => {
      const answer = await call(identityProbes, '/readyz');
      return answer.status === 503 ? answer : undefined;
    });
    expect(ready.body).toMatchObject({ status: 'down', checks: { database: 'down', bus: 'up' } });
    expect((await call(identityProbes, '/healthz')).status).toBe(200);

    await pg.resume();
    await eventually(async () => ((await register()).status === 201 ? true : undefined), 30_000);
    expect(identity.exitCode).toBeNull();
    expect(identity.pid).toBe(pid);
    expect(identityProcess.output()).not.toMatch(/Unhandled|uncaught/i);
  });

  it('starts a service while PostgreSQL is down: alive, not ready, and ready once the database returns', async () => {
    await pg.stop();
    let databaseDown = true;
    const replica = await spawnService('identity', { NATS_URL: nats.url, DATABASE_URL: pg.url(), BUS_NAMESPACE: namespace });
    try {
      // It serves its probes while it waits: alive (no restart by the kubelet), not ready.
      await eventually(() => answers(replica.probes, '/healthz', 200), 60_000).catch((err) => {
        throw new Error(`no liveness while waiting for the database: ${err}\n${replica.output()}`);
      });
      const waitingSince = Date.now();
      while (Date.now() - waitingSince < 8_000) {
        const ready = await call(replica.probes, '/readyz');
        expect(ready.status).toBe(503);
        expect(ready.body).toMatchObject({ status: 'down', checks: { database: 'down' } });
        expect((await call(replica.probes, '/healthz')).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(replica.child.exitCode).toBeNull();
      expect(replica.output()).toMatch(/database of identity: .*retrying in/);

      await pg.resume();
      databaseDown = false;
      // Its next attempt (the backoff has reached a few seconds) finds the database.
      await eventually(() => answers(replica.probes, '/readyz', 200), 60_000);
      expect(replica.child.exitCode).toBeNull();
      expect(replica.output()).not.toMatch(/Unhandled|uncaught/i);
    } finally {
      if (databaseDown) await pg.resume();
      replica.child.kill('SIGTERM');
      await exited(replica.child);
    }
  });

  it('answers every check with one of two access replicas frozen: 200 from the other, 503 problem+json at the deadline, none left hanging', async () => {
    const env = { NATS_URL: nats.url, DATABASE_URL: pg.url(), BUS_NAMESPACE: namespace, ENTITLEMENTS_TIMEOUT_MS: '1000' };
    const replicas = [await spawnService('access', env), await spawnService('access', env)];
    const [frozen] = replicas;
    const allGranted = async (path: string) => {
      const answers = await Promise.all(Array.from({ length: 10 }, () => check(path)));
      return answers.every((answer) => answer.status === 200 && answer.body.granted === false) ? true : undefined;
    };
    try {
      for (const replica of replicas) {
        await eventually(() => answers(replica.probes, '/readyz', 200), 60_000).catch((err) => {
          throw new Error(`access did not become ready: ${err}\n${replica.output()}`);
        });
      }
      // The two processes are the only access replicas from here on.
      await services.splice(services.findIndex((service) => service.name === 'access'), 1)[0].close();
      await eventually(() => allGranted('/letters/c'), 30_000);

      frozen.child.kill('SIGSTOP');
      const frozenAt = Date.now();
      // Bursts of 4 concurrent checks every 500 ms for 10 s.
      const bursts: Array<Promise<Array<[Answer, number]>>> = [];
      while (Date.now() - frozenAt < 10_000) {
        bursts.push(Promise.all(Array.from({ length: 4 }, () => timed(() => check('/letters/d')))));
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const outcomes = (await Promise.all(bursts)).flat();
      const failures = outcomes.filter(([answer]) => answer.status !== 200);
      // The frozen replica takes its share of checks (NATS still counts it in the queue group)...
      expect(failures.length).toBeGreaterThan(0);
      for (const [answer] of failures) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(answer.body).toMatchObject({ status: 503, code: 'service_unavailable' });
      }
      // ...the other one answers the rest...
      expect(failures.length).toBeLessThan(outcomes.length);
      for (const [answer] of outcomes.filter(([answer]) => answer.status === 200)) expect(answer.body.granted).toBe(false);
      // ...and a check sent to the frozen one is answered at its deadline, never left hanging (a loaded machine may add a few seconds).
      expect(Math.max(...outcomes.map(([, ms]) => ms))).toBeLessThan(BUS_TIMEOUT_MS + 5_000);

      // Thawed, the replica drops the checks whose callers were answered and serves again, nothing restarted.
      frozen.child.kill('SIGCONT');
      await eventually(() => answers(frozen.probes, '/readyz', 200), 30_000);
      await eventually(() => allGranted('/letters/e'), 30_000);
      expect(frozen.child.exitCode).toBeNull();
      expect(frozen.output()).not.toMatch(/Unhandled|uncaught/i);
    } finally {
      frozen.child.kill('SIGCONT');
      for (const replica of replicas) replica.child.kill('SIGKILL');
      await Promise.all(replicas.map((replica) => exited(replica.child)));
      if (!services.some((service) => service.name === 'access')) services.push(await inProcess(accessService, { ENTITLEMENTS_TIMEOUT_MS: '1000' }));
    }
  });

  it('turns readiness red within one probe period when NATS freezes, leaves the queue group, and never runs a write it answered 503', async () => {
    nats.freeze();
    const frozenAt = Date.now();
    try {
      const gatewayReady = await eventually(async () => {
        const answer = await call(gateway.url, '/readyz');
        return answer.status === 503 ? answer : undefined;
      }, PROBE_PERIOD_MS);
      expect(gatewayReady.body).toMatchObject({ status: 'down', checks: { bus: 'down' } });
      const serviceReady = await eventually(async () => {
        const answer = await call(identityProbes, '/readyz');
        return answer.status === 503 ? answer : undefined;
      }, PROBE_PERIOD_MS);
      expect(serviceReady.body).toMatchObject({ status: 'down', checks: { bus: 'down' } });
      expect(Date.now() - frozenAt).toBeLessThan(2 * PROBE_PERIOD_MS);

      const emails = Array.from({ length: 5 }, () => `frozen-${randomUUID()}@example.com`);
      const answers = await Promise.all(emails.map((email) => register(email)));
      expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503, 503]);
      // Unready on the bus path, identity has left its queue group (and rejoins once it works again).
      const member = async () => /^gatehouse_bus_queue_group_member\{service="identity"\} (\d)/m.exec(String((await call(identityProbes, '/metrics')).body))?.[1];
      await eventually(async () => ((await member()) === '0' ? true : undefined), 15_000);

      nats.thaw();
      await eventually(async () => ((await call(gateway.url, '/readyz')).status === 200 ? true : undefined), 20_000);
      await eventually(async () => ((await call(identityProbes, '/readyz')).status === 200 ? true : undefined), 20_000);
      await eventually(async () => ((await member()) === '1' ? true : undefined), 15_000);
      expect((await register()).status).toBe(201);
      // The frozen requests reached identity on thawing, after their callers were answered: none was carried out.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await customersNamed(emails)).toBe(0);
    } finally {
      nats.thaw();
    }
  });

  it('starts a service during a NATS outage and has it answer soon after NATS returns', async () => {
    await nats.stop();
    let branding: RunningService | undefined;
    const starting = inProcess(brandingService).then((service) => (branding = service));
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(branding).toBeUndefined();
    await nats.resume();
    const returned = Date.now();
    services.push(await starting);
    await eventually(async () => ((await api('/health')).body.services?.branding?.status === 'up' ? true : undefined), 20_000);
    expect(Date.now() - returned).toBeLessThan(10_000);
    expect(identity.exitCode).toBeNull();
  });
});
