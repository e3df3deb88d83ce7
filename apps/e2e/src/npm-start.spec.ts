import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually } from '@gatehouse/testing';
import { call, sessionFrom } from './support/http';

const ROOT = resolve(__dirname, '../../..');

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

/**
 * `npm start` on a bare machine: no DATABASE_URL, no NATS_URL, a fresh DATA_DIR. Every service
 * runs in one process on the in-process bus and an embedded PostgreSQL.
 */
describe('npm start (embedded, one process)', () => {
  let child: ChildProcess;
  let output = '';
  let base: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'));

  beforeAll(async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    delete env['DATABASE_URL'];
    delete env['NATS_URL'];
    delete env['PUBLIC_BASE_URL'];
    // Exactly the `start` script of package.json, exec'd so that signals reach the Node process itself.
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    child = spawn('sh', ['-c', `exec ${scripts['start']}`], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`npm start did not come up:\n${output}`)), 110_000);
      const check = setInterval(() => {
        if (output.includes('API docs:')) {
          clearTimeout(timer);
          clearInterval(check);
          ok();
        }
      }, 100);
      child.once('exit', (code) => {
        clearTimeout(timer);
        clearInterval(check);
        fail(new Error(`npm start exited with ${code}:\n${output}`));
      });
    });
    base = `http://127.0.0.1:${port}`;
  }, 120_000);

  afterAll(async () => {
    // Whatever a failed test left running: the whole process group, embedded PostgreSQL included.
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  /** The admin password `npm start` generated and printed. */
  const demoPassword = () => /Demo dashboard login, generated for this start .*: admin@example\.com \/ (\S+) via/.exec(output)?.[1] ?? 'not printed';

  it('prints where the API docs are', () => {
    expect(output).toMatch(/API docs: http:\/\/localhost:\d+\/docs/);
  });

  it('listens on 127.0.0.1 only, with a generated demo password', async () => {
    expect(output).toMatch(/running on 127\.0\.0\.1:\d+/);
    expect(demoPassword()).toMatch(/^[\w-]{16}$/);
    expect(demoPassword()).not.toBe('gatehouse-demo');
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (outside) await expect(fetch(`http://${outside.address}:${new URL(base).port}/api/v1/health`)).rejects.toThrow();
  });

  it('serves the Swagger UI and its OpenAPI document', async () => {
    const ui = await fetch(`${base}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
    const json = await fetch(`${base}/docs/json`);
    expect(json.status).toBe(200);
    const doc = (await json.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/health', '/api/v1/auth/.well-known/jwks.json']));
  });

  it('reports all seven services up by name', async () => {
    const res = await fetch(`${base}/api/v1/health`);
    const body = (await res.json()) as { status: string; services: Record<string, { status: string }> };
    expect(res.status).toBe(200);
    expect(body.status).toBe('up');
    expect(Object.keys(body.services).sort()).toEqual(['access', 'admin', 'billing', 'branding', 'gateway', 'identity', 'webhooks-out']);
    for (const service of Object.values(body.services)) expect(service.status).toBe('up');
  });

  it("runs a publisher's first steps on the in-process bus: keys, a paywall, a decision, a signed webhook", async () => {
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
    try {
      const login = await call(base, '/api/v1/admin/session', { body: { email: 'admin@example.com', password: demoPassword() } });
      expect(login.status).toBe(200);
      const session = sessionFrom(login);
      const keys = await call(base, '/api/v1/admin/api-keys', { session, body: { name: 'first-site' } });
      expect(keys.status).toBe(201);
      const webhook = await call(base, '/api/v1/admin/webhooks', {
        session,
        body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, events: ['customer.created'] },
      });
      expect(webhook.status).toBe(201);
      const paywall = await call(base, '/api/v1/admin/paywalls', {
        session,
        body: { name: 'Premium', type: 'hard', match: { include: ['/premium/**'] }, presentation: 'modal' },
      });
      expect(paywall.status).toBe(201);

      const decision = await call(base, `/api/v1/access/check?url=${encodeURIComponent('http://localhost/premium/story')}`, { key: keys.body.publishableKey });
      expect(decision.body).toMatchObject({ granted: false, reason: 'blocked', paywallRule: { paywallId: paywall.body.id, type: 'hard' } });
      const free = await call(base, `/api/v1/access/check?url=${encodeURIComponent('http://localhost/news/story')}`, { key: keys.body.publishableKey });
      expect(free.body).toMatchObject({ granted: true, reason: 'no_rule' });

      const customer = await call(base, '/api/v1/customers', { key: keys.body.secretKey, body: { email: 'first@example.com', name: 'First Reader' } });
      expect(customer.status).toBe(201);
      await eventually(() => (received.length > 0 ? true : undefined), 15_000);
      const [delivery] = received;
      expect(delivery.headers['x-service-event']).toBe('customer.created');
      const expected = `sha256=${createHmac('sha256', webhook.body.secret).update(delivery.body).digest('hex')}`;
      expect(delivery.headers['x-service-signature']).toBe(expected);
      expect(JSON.parse(delivery.body)).toMatchObject({ event: 'customer.created', data: { customerId: customer.body.id, email: 'first@example.com' } });
    } finally {
      receiver.close();
    }
  });

  it('keeps account email in the local mailbox without SMTP_URL, and a password reset completes from it', async () => {
    expect(output).toContain(`local mailbox: GET http://localhost:${new URL(base).port}/api/v1/admin/mailbox`);
    const session = sessionFrom(await call(base, '/api/v1/admin/session', { body: { email: 'admin@example.com', password: demoPassword() } }));
    const keys = await call(base, '/api/v1/admin/api-keys', { session, body: { name: 'mailbox-site' } });
    const key = keys.body.publishableKey as string;
    const email = 'forgetful@example.com';
    expect((await call(base, '/api/v1/auth/customers/register', { key, body: { email, password: 'first password', name: 'Forgetful' } })).status).toBe(201);
    expect((await call(base, '/api/v1/auth/customers/password-reset', { key, body: { email } })).status).toBe(202);

    const listed = await eventually(async () => {
      const mailbox = await call(base, '/api/v1/admin/mailbox', { session });
      const items = mailbox.body.items as Array<{ id: string; to: string; kind: string; status: string; delivery: string }>;
      return items.find((m) => m.to === email && m.kind === 'password_reset' && m.status === 'sent');
    }, 15_000);
    expect(listed.delivery).toBe('mailbox');
    const message = await call(base, `/api/v1/admin/mailbox/${listed.id}`, { session });
    expect(message.body.subject).toBe('Reset your Demo Gazette password');
    expect(message.body.html).toContain('Choose a new password');
    const token = /#gatehouse-reset-password=([\w-]+)/.exec(message.body.text as string)?.[1];
    expect(token).toBeDefined();

    const reset = await call(base, '/api/v1/auth/customers/password-reset/confirm', { key, body: { token, password: 'second password' } });
    expect(reset.status).toBe(200);
    expect(reset.body.customer).toMatchObject({ email, emailVerified: true });
    expect((await call(base, '/api/v1/auth/customers/login', { key, body: { email, password: 'second password' } })).status).toBe(200);
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    process.kill(child.pid!, 'SIGTERM');
    await expect(exited).resolves.toBe(0);
    expect(output).not.toMatch(/error/i);
  }, 30_000);
});
