import { spawn, type ChildProcess } from 'node:child_process';
import { createTestDatabase, type TestDatabase } from '@gatehouse/testing';
import { call } from './support/http';
import { freePort, ROOT } from './support/processes';
import { adminSession, bootstrapEnv } from './support/staff';


/** The whole system in a child process (as `npm start` runs it) on the test's database, to be killed. */
async function startSystem(databaseUrl: string, port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    ...bootstrapEnv({ name: 'Crash Daily', domains: ['crash.example'] }),
  };
  delete env['NATS_URL'];
  delete env['PUBLIC_BASE_URL'];
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/local/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the system did not come up:\n${output}`)), 110_000);
    const poll = setInterval(() => {
      if (!output.includes('API docs:')) return;
      clearTimeout(timer);
      clearInterval(poll);
      ok();
    }, 50);
    child.once('exit', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      fail(new Error(`the system exited with ${code}:\n${output}`));
    });
  });
  return child;
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) return ok();
    child.once('exit', () => ok());
    child.kill('SIGKILL');
  });
}

describe('an event answered 202 survives a kill -9 right after the answer', () => {
  let db: TestDatabase;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    if (child) await killHard(child);
    await db?.drop();
  });

  it('keeps the newsletter pass and the paywall_shown count of a request the process died right after answering', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(base, `/api/v1${path}`, options);
    child = await startSystem(db.url, port);
    const { session } = await adminSession(base);
    const { publishableKey } = (await api('/admin/api-keys', { session, body: { name: 'site' } })).body;
    const paywall = (await api('/admin/paywalls', { session, body: { name: 'Newsletter', type: 'newsletter', match: { include: ['/letters/**'] } } })).body;
    expect((await api(`/access/check?url=${encodeURIComponent('https://crash.example/letters/a')}&userId=survivor`, { key: publishableKey })).body).toMatchObject({
      granted: false,
    });

    const accepted = await api('/events', {
      key: publishableKey,
      body: {
        events: [
          { type: 'paywall_shown', url: 'https://crash.example/letters/a', userId: 'survivor', paywallId: paywall.id },
          { type: 'newsletter_subscribe', url: 'https://crash.example/letters/a', userId: 'survivor', data: { email: 'survivor@example.com' } },
        ],
      },
    });
    expect(accepted.status).toBe(202);
    await killHard(child);

    child = await startSystem(db.url, port);
    const check = await api(`/access/check?url=${encodeURIComponent('https://crash.example/letters/b')}&userId=survivor`, { key: publishableKey });
    expect(check.body).toMatchObject({ granted: true, reason: 'newsletter_passed' });
    const { session: again } = await adminSession(base);
    const stats = await api('/admin/stats?interval=hour', { session: again });
    expect(stats.status).toBe(200);
    expect(stats.body.paywalls.find((row: { paywallId: string }) => row.paywallId === paywall.id)).toMatchObject({ shown: 1 });
  }, 240_000);
});
