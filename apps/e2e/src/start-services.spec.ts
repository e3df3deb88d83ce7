import { spawn, type ChildProcess } from 'node:child_process';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { call } from './support/http';
import { exited, freePort, ROOT } from './support/processes';

jest.setTimeout(180_000);

/** `npm run start:services` keeps the services up: one killed with -9 is started again and answers. */
describe('npm run start:services', () => {
  let db: TestDatabase;
  let supervisor: ChildProcess;
  let output = '';
  let base: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    supervisor = spawn('npm', ['run', '--silent', 'start:services', '--', 'identity', 'gateway'], {
      cwd: ROOT,
      env: { ...process.env, NATS_URL: testNatsUrl(), DATABASE_URL: db.url, BUS_NAMESPACE: uniqueNamespace('sup'), PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    supervisor.stdout!.on('data', (chunk) => (output += chunk));
    supervisor.stderr!.on('data', (chunk) => (output += chunk));
    await eventually(async () => ((await call(base, '/api/v1/auth/.well-known/jwks.json')).status === 200 ? true : undefined), 90_000).catch((err) => {
      throw new Error(`the services did not come up: ${err}\n${output}`);
    });
  });

  afterAll(async () => {
    if (supervisor && supervisor.exitCode === null) {
      process.kill(-supervisor.pid!, 'SIGTERM');
      await exited(supervisor);
    }
    await db?.drop();
  });

  const pidOf = (service: string): number => {
    const started = [...output.matchAll(new RegExp(`\\[${service}\\]\\s+started, pid (\\d+)`, 'g'))];
    return Number(started[started.length - 1][1]);
  };

  it('restarts a service killed with -9, says so, and it answers again within 15 s', async () => {
    const before = pidOf('identity');
    process.kill(before, 'SIGKILL');
    const killed = Date.now();
    // Asked over the bus each time: only a running identity answers.
    const identityUp = async () => (await call(base, '/api/v1/health')).body.services.identity.status === 'up';
    expect(await identityUp()).toBe(false);
    await eventually(async () => ((await identityUp()) && pidOf('identity') !== before ? true : undefined), 15_000).catch((err) => {
      throw new Error(`identity is not back: ${err}\n${output}`);
    });
    expect(Date.now() - killed).toBeLessThan(15_000);
    expect(output).toMatch(/\[identity\]\s+exited \(SIGKILL\); restarting in 1 s/);
  });
});
