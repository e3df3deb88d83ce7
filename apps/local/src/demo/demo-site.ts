import type { PaywallDraft, PaywallView, PriceView, ProductView } from '@gatehouse/contracts';
import { Gatehouse, gatehouseFastify } from '@gatehouse/node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { articlePage, homePage, type DemoSettings } from './pages';

/*
 * The demo publisher site of `npm start` (decisions J3): pages at /demo on the gateway's origin,
 * and the bootstrap publication seeded through the admin API with the demo's paywalls, a product
 * with a price and, while the local fake processor runs, processor settings pointing at it. Its
 * pages are gated on the server by the enforcement `@gatehouse/node` ships (docs/server.md), but
 * for one section kept client-side only to show what that cannot protect (docs/elements.md).
 */

const ROOT = resolve(__dirname, '../../../..');
/** The processor key saved while the local fake processor stands in (the fake accepts any key). */
export const LOCAL_PROCESSOR_KEY = 'sk_test_local_fake_processor';

const PAYWALLS: PaywallDraft[] = [
  { name: 'Demo: metered news', type: 'metered', config: { limit: 3, period: 'month' }, match: { include: ['/demo/metered/**'] }, presentation: 'modal', priority: 10 },
  { name: 'Demo: premium', type: 'hard', match: { include: ['/demo/premium/**'] }, presentation: 'content_lock', priority: 10 },
  { name: 'Demo: members', type: 'registration', match: { include: ['/demo/members/**'] }, presentation: 'sticky_bar', priority: 10 },
  { name: 'Demo: newsletter', type: 'newsletter', match: { include: ['/demo/newsletter/**'] }, presentation: 'inline', priority: 10 },
  { name: 'Demo: client-side only', type: 'hard', match: { include: ['/demo/client-side/**'] }, presentation: 'content_lock', priority: 10 },
];
const PRODUCT = 'Demo Gazette Digital';

/** Serves /demo on the gateway; pages answer 503 until `seed` has run. */
export class DemoSite {
  private settings: DemoSettings | null = null;

  /** `publicOrigin`: the gateway's public origin, on which the demo's pages are decided whatever Host a request names. */
  constructor(app: NestFastifyApplication, publicOrigin: string) {
    const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
    const settings = () => this.settings;
    // The demo asks the gateway it runs in, without a trip through the network; its key exists once `seed` ran, before any page is served.
    const client = new Gatehouse({
      baseUrl: publicOrigin,
      fetch: inProcess(fastify),
      get publishableKey() {
        return settings()?.publishableKey;
      },
    });
    const send = (reply: FastifyReply, page: string | null) =>
      page === null ? reply.status(404).type('text/plain').send('No such demo page.') : reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
    // Its own encapsulation context: the enforcement's hook sees the demo's pages only.
    void fastify.register(async (demo) => {
      gatehouseFastify(demo, { client, publicOrigin });
      demo.get('/demo', (_request, reply) => reply.redirect('/demo/'));
      demo.get('/demo/', (_request, reply) => (this.settings ? send(reply, homePage(this.settings)) : this.starting(reply)));
      demo.get('/demo/:section/:slug', (request, reply) => {
        const { section, slug } = request.params as { section: string; slug: string };
        return this.settings ? send(reply, articlePage(this.settings, section, slug)) : this.starting(reply);
      });
    });
  }

  private starting(reply: FastifyReply) {
    return reply.status(503).header('Retry-After', '2').type('text/plain').send('The demo site is starting.');
  }

  /**
   * Seeds the bootstrap publication through the admin API at `base`, signing in as the bootstrap
   * admin: the demo's key pair (kept under dataDir, a new one when it no longer works), paywalls,
   * product and price. Idempotent: what exists is kept.
   */
  async seed(base: string, admin: { email: string; password: string }, dataDir: string, localProcessor: boolean): Promise<void> {
    const api = new AdminApi(base);
    await api.signIn(admin);
    const publishableKey = await this.demoKey(api, base, dataDir);
    if (localProcessor) await api.call('PUT', '/admin/processor', { secretKey: LOCAL_PROCESSOR_KEY });
    const existing = await api.call<{ items: PaywallView[] }>('GET', '/admin/paywalls?limit=100');
    for (const paywall of PAYWALLS) if (!existing.items.some((p) => p.name === paywall.name)) await api.call('POST', '/admin/paywalls', paywall);
    const products = await api.call<{ items: ProductView[] }>('GET', '/admin/products?limit=100');
    const product = products.items.find((p) => p.name === PRODUCT) ?? (await api.call<ProductView>('POST', '/admin/products', { name: PRODUCT, entitlements: [] }));
    const prices = (await api.call<{ items: PriceView[] }>('GET', `/admin/products/${product.id}/prices?limit=100`)).items;
    if (!prices.some((p) => p.active)) await api.call('POST', `/admin/products/${product.id}/prices`, { currency: 'usd', unitAmount: 500, interval: 'month', trialDays: 0, active: true });
    this.settings = { publishableKey };
  }

  private async demoKey(api: AdminApi, base: string, dataDir: string): Promise<string> {
    const file = join(dataDir, 'demo-site.json');
    const saved = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { publishableKey?: string }).publishableKey : undefined;
    if (saved && (await fetch(`${base}/api/v1/branding`, { headers: { 'X-API-Key': saved } })).status === 200) return saved;
    // Key names are never reused (decisions H1): each new demo pair gets its own.
    const created = await api.call<{ publishableKey: string }>('POST', '/admin/api-keys', { name: `demo-site-${Date.now()}` });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ publishableKey: created.publishableKey }), { mode: 0o600 });
    return created.publishableKey;
  }
}

/** `fetch` answered by the Fastify instance itself (`inject`): the same routes, guards and limits as over HTTP. */
function inProcess(fastify: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const answer = await fastify.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      payload: typeof init?.body === 'string' ? init.body : undefined,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    return new Response(answer.statusCode === 204 ? null : answer.body, { status: answer.statusCode, headers });
  };
}

class AdminApi {
  private cookie = '';

  constructor(private readonly base: string) {}

  async signIn(admin: { email: string; password: string }): Promise<void> {
    const res = await fetch(`${this.base}/api/v1/admin/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(admin) });
    if (res.status !== 200) throw new Error(`signing in as the bootstrap admin ${admin.email} answered ${res.status}`);
    this.cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  }

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Cookie: this.cookie };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.base}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

/**
 * tools/fake-processor as its own process, standing in for the payment processor while none is
 * configured (PROCESSOR_API_URL unset): it serves a checkout page with a Pay button and sends
 * the processor's signed events to the webhook endpoint billing registers with it.
 */
export async function startLocalProcessor(): Promise<{ url: string; close(): void }> {
  const child: ChildProcess = spawn(process.execPath, ['-r', '@swc-node/register', 'tools/fake-processor/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, FAKE_PROCESSOR_PORT: '0', FAKE_PROCESSOR_DELIVER: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((ok, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) ok(match[1]);
    });
    child.once('exit', (code) => fail(new Error(`the local fake processor exited with ${code}: ${output}`)));
  });
  return { url, close: () => void child.kill('SIGTERM') };
}
