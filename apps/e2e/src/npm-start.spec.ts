import { createHmac } from 'node:crypto';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { eventually } from '@gatehouse/testing';
import { Client } from 'pg';
import { call, sessionFrom } from './support/http';
import { LocalStart } from './support/local-start';

/**
 * `npm start` on a bare machine: no DATABASE_URL, no NATS_URL, a fresh DATA_DIR. Every service
 * runs in one process on the in-process bus and an embedded PostgreSQL.
 */
describe('npm start (embedded, one process)', () => {
  let started: LocalStart;
  let base: string;

  beforeAll(async () => {
    started = await LocalStart.start({ database: 'embedded' });
    base = started.url.replace('//localhost:', '//127.0.0.1:');
  }, 120_000);

  // Whatever a failed test left running: the whole process group, embedded PostgreSQL included.
  afterAll(() => started?.close(), 30_000);

  /** The admin password `npm start` generated and printed. */
  const demoPassword = () => started.adminAccount.password;

  it('prints where the API docs are', () => {
    expect(started.output).toMatch(/API docs: http:\/\/localhost:\d+\/docs/);
    expect(started.output).toMatch(/Demo publisher site: http:\/\/localhost:\d+\/demo\//);
  });

  it('gives the demo site, on the dashboard\'s origin, the rate-limit headers and a policy that forbids framing', async () => {
    const demo = await eventually(async () => {
      const page = await fetch(`${base}/demo/`);
      return page.status === 200 ? page : undefined;
    }, 30_000);
    expect(demo.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(demo.headers.get('content-security-policy')).toMatch(/object-src 'none'/);
    expect(demo.headers.get('x-ratelimit-limit')).toBe('200');
  });

  it('serves the built dashboard at /dashboard, deep links included, and prints its address', async () => {
    expect(started.output).toMatch(/Dashboard: http:\/\/localhost:\d+\/dashboard\//);
    const page = await fetch(`${base}/dashboard/api-keys`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${base}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it("starts the example publisher's server beside it, cutting the paid text for a visitor", async () => {
    const site = await eventually(async () => /Example publisher \(server-side paywall\): (http:\/\/localhost:\d+)\//.exec(started.output)?.[1]);
    const page = await fetch(`${site}/articles/premium/harbour-rebuild`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('The council voted on Tuesday night');
    expect(html).not.toContain('The plan, costed at 40 million');
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('listens on 127.0.0.1 only, with a generated demo password', async () => {
    expect(started.output).toMatch(/running on 127\.0\.0\.1:\d+/);
    expect(demoPassword()).toMatch(/^[\w-]{16}$/);
    expect(demoPassword()).not.toBe('gatehouse-demo');
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    const example = /Example publisher \(server-side paywall\): http:\/\/localhost:(\d+)\//.exec(started.output)?.[1];
    expect((await fetch(`http://127.0.0.1:${example}/`)).status).toBe(200);
    if (outside) {
      await expect(fetch(`http://${outside.address}:${new URL(base).port}/api/v1/health`)).rejects.toThrow();
      // The example publisher's server too.
      await expect(fetch(`http://${outside.address}:${example}/`)).rejects.toThrow();
    }
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

  it('sizes the embedded PostgreSQL for a small instance, with connections enough for every pool', async () => {
    const sql = new Client({ connectionString: started.databaseUrl });
    await sql.connect();
    try {
      const setting = async (name: string) => ((await sql.query(`SHOW ${name}`)).rows[0] as Record<string, string>)[name];
      expect({ shared_buffers: await setting('shared_buffers'), work_mem: await setting('work_mem') }).toEqual({ shared_buffers: '32MB', work_mem: '2MB' });
      // Six services, each a pool of ten and its outbox relay's listener, and spare.
      expect(Number(await setting('max_connections'))).toBeGreaterThanOrEqual(6 * 11 + 10);
    } finally {
      await sql.end();
    }
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

  it('keeps account email in the local mailbox without SMTP_URL, its link redacted, for owners only', async () => {
    expect(started.output).toContain(`local mailbox: GET http://localhost:${new URL(base).port}/api/v1/admin/mailbox`);
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
    // Staff see that a link went out, never the link: no one reading the mailbox can reset the reader's password.
    expect(message.body.text).toContain('[link sent to the reader, not kept]');
    expect(`${message.body.text}${message.body.html}`).not.toMatch(/gatehouse-reset-password=/);
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((ok) => started.child.once('exit', (code) => ok(code)));
    process.kill(started.child.pid!, 'SIGTERM');
    await expect(exited).resolves.toBe(0);
    expect(started.output).not.toMatch(/error/i);
  }, 30_000);
});
