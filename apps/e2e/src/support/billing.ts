import { adminService } from '@gatehouse/admin';
import { billingService } from '@gatehouse/billing';
import { BusClient, type BusOptions, createRequestClient, deleteEventStream, type EventSubscription, JetStreamEventTransport } from '@gatehouse/bus';
import { type RunningService, startService } from '@gatehouse/runtime';
import type { EventEnvelope, RequestPattern } from '@gatehouse/contracts';
import { identityService } from '@gatehouse/identity';
import { Clock, loadConfig } from '@gatehouse/platform';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { call, sessionFrom, type Answer, type Call } from './http';
import { startGatewayOverNats, startServiceOverNats, type TestGateway } from './system';

const ROOT = resolve(__dirname, '../../../..');

/* What the fake processor answers, as far as these tests read it (tools/fake-processor has the whole shape). */
export type ProcessorObject = Record<string, any>;
export interface ProcessorEvent {
  id: string;
  type: string;
  created: number;
  data: { object: ProcessorObject };
}
export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, any>;
  apiKey: string | null;
}
export interface EventOptions {
  created?: number;
}

/**
 * tools/fake-processor run as its own process, as in local development, and driven through its
 * control routes (`/_fake/...`): what it was sent, failures on demand, the customer's side of a
 * checkout, and events signed and delivered exactly as the processor delivers them.
 */
export class FakeProcessorProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async spawn(): Promise<FakeProcessorProcess> {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'tools/fake-processor/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, FAKE_PROCESSOR_PORT: '0', FAKE_PROCESSOR_DELIVER: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`the fake processor did not start:\n${output}`)), 20_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          ok(match[1]);
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', (code) => fail(new Error(`the fake processor exited with ${code}:\n${output}`)));
    });
    return new FakeProcessorProcess(child, url);
  }

  requests(): Promise<RecordedRequest[]> {
    return this.control('GET', '/requests');
  }

  async requestsTo(method: string, path: string): Promise<RecordedRequest[]> {
    const prefix = path.endsWith('*') ? path.slice(0, -1) : null;
    return (await this.requests()).filter((r) => r.method === method && (prefix ? r.path.startsWith(prefix) : r.path === path));
  }

  failNext(rule: { method?: string; path: string; status?: number; times?: number }): Promise<unknown> {
    return this.control('POST', '/failures', rule);
  }

  completeCheckout(sessionId: string, options: EventOptions & { status?: string } = {}): Promise<{ session: ProcessorObject; subscription: ProcessorObject | null; events: ProcessorEvent[] }> {
    return this.control('POST', `/checkout/sessions/${sessionId}/complete`, options);
  }

  createSubscription(
    spec: { customer?: string; price: string; status?: string; metadata?: Record<string, string>; trialDays?: number },
    options: EventOptions = {},
  ): Promise<{ subscription: ProcessorObject; event: ProcessorEvent }> {
    return this.control('POST', '/subscriptions', { spec, options });
  }

  updateSubscription(id: string, changes: Record<string, unknown>, options: EventOptions = {}): Promise<ProcessorEvent> {
    return this.control('POST', `/subscriptions/${id}/update`, { changes, options });
  }

  deleteSubscription(id: string, options: EventOptions = {}): Promise<ProcessorEvent> {
    return this.control('POST', `/subscriptions/${id}/delete`, { options });
  }

  invoiceEvent(id: string, type: 'invoice.payment_succeeded' | 'invoice.payment_failed' | 'invoice.upcoming', options: EventOptions = {}): Promise<ProcessorEvent> {
    return this.control('POST', `/subscriptions/${id}/invoices`, { type, options });
  }

  customerEvent(id: string, type: 'customer.created' | 'customer.updated', changes: { email?: string; name?: string } = {}, options: EventOptions = {}): Promise<ProcessorEvent> {
    return this.control('POST', `/customers/${id}/events`, { type, changes, options });
  }

  object(collection: string, id: string): Promise<ProcessorObject> {
    return this.control('GET', `/objects/${collection}/${id}`);
  }

  /** Signs and POSTs the event as the processor does; `timestamp` backdates the signature, `signature` replaces it (null: none). */
  deliver(targetUrl: string, secret: string, event: object, options: { timestamp?: number; signature?: string | null } = {}): Promise<Answer> {
    return this.control<{ status: number; body: unknown }>('POST', '/deliveries', { targetUrl, secret, event, options }).then((result) => ({
      ...result,
      headers: new Headers(),
    }));
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((ok) => this.child.once('exit', ok));
    this.child.kill('SIGTERM');
    await exited;
  }

  private async control<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/_fake${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.json()) as T;
    if (!res.ok) throw new Error(`fake processor ${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  }
}

const ADMIN = { email: 'billing-admin@example.com', password: 'billing-admin-password' };
export const WEBHOOK_SECRET = `whsec_${randomBytes(18).toString('base64url')}`;
export const ENVIRONMENT_WEBHOOK_SECRET = `whsec_${randomBytes(18).toString('base64url')}`;
export const SECRET_KEY = 'sk_test_gatehouse_e2e_0001';
export const PUBLIC_BASE_URL = 'https://gatehouse.test';

/** The real time, moved forward when a test says so: what billing sees when a test needs days to pass. */
export class SteerableClock extends Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface Customer {
  id: string;
  email: string;
  accessToken: string;
}

/**
 * Identity, admin, billing and the gateway over the real NATS and PostgreSQL, billing pointed
 * at a fake processor; a staff session, a key pair, and helpers for what billing tests repeat.
 */
export class BillingSystem {
  readonly namespace = uniqueNamespace('billing');
  readonly outbound: EventEnvelope[] = [];
  fake: FakeProcessorProcess;
  gateway: TestGateway;
  session: string;
  publicationId: string;
  publishableKey: string;
  secretKey: string;
  billing: RunningService;
  private db: TestDatabase;
  private sql: Client;
  private bus: BusClient;
  private readonly services: RunningService[] = [];
  private events?: JetStreamEventTransport;
  private reader?: EventSubscription;

  /** `clock`: the time billing reads, the system's unless given. */
  static async start(clock?: Clock): Promise<BillingSystem> {
    const system = new BillingSystem();
    await system.boot(clock);
    return system;
  }

  private async boot(clock?: Clock): Promise<void> {
    const env = {
      BCRYPT_COST: '4',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      BOOTSTRAP_PUBLICATION_NAME: 'Billing Gazette',
      BOOTSTRAP_PUBLICATION_DOMAINS: 'billing.example',
    };
    [this.db, this.fake] = await Promise.all([createTestDatabase(), FakeProcessorProcess.spawn()]);
    const billingEnv = {
      PROCESSOR_API_URL: this.fake.url,
      PROCESSOR_WEBHOOK_SECRET: ENVIRONMENT_WEBHOOK_SECRET,
      PUBLIC_BASE_URL,
      PROCESSOR_SETTINGS_KEY: randomBytes(32).toString('base64'),
    };
    const billingConfig = loadConfig(billingService.config, {
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
      BUS_NAMESPACE: this.namespace,
      DATABASE_URL: this.db.url,
      ...billingEnv,
    });
    const services = await Promise.all([
      startServiceOverNats(identityService, this.db.url, this.namespace, env),
      startServiceOverNats(adminService, this.db.url, this.namespace, env),
      startService(billingService, { config: billingConfig, transport: { kind: 'nats', servers: [testNatsUrl()] }, databaseUrl: this.db.url, clock, migrate: true }),
    ]);
    this.services.push(...services);
    this.billing = services[2];
    this.gateway = await startGatewayOverNats(this.namespace);
    const options: BusOptions = { service: 'gateway', namespace: this.namespace, transport: { kind: 'nats', servers: [testNatsUrl()] } };
    this.bus = new BusClient(options, createRequestClient(options));
    this.sql = new Client({ connectionString: this.db.url, options: '-c search_path=billing' });
    await this.sql.connect();

    const login = await this.api('/admin/session', { body: ADMIN });
    this.session = sessionFrom(login);
    this.publicationId = login.body.publication.id;
    const keys = await this.api('/admin/api-keys', { session: this.session, body: { name: 'billing-site' } });
    ({ publishableKey: this.publishableKey, secretKey: this.secretKey } = keys.body);
  }

  get databaseUrl(): string {
    return this.db.url;
  }

  api<T = any>(path: string, options: Call = {}): Promise<Answer<T>> {
    return call<T>(this.gateway.url, `/api/v1${path}`, options);
  }

  admin<T = any>(path: string, options: Omit<Call, 'session'> = {}): Promise<Answer<T>> {
    return this.api<T>(path, { ...options, session: this.session });
  }

  /** A bus request as another service would send it. */
  request<Req, Res>(pattern: RequestPattern<Req, Res>, payload: NoInfer<Req>): Promise<Res> {
    return this.bus.request(pattern, payload);
  }

  /** Reads billing's own tables, to see what is (not) stored. */
  async query<T extends Record<string, any>>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.sql.query<T>(text, params)).rows;
  }

  /** A second publication of the same admin, with its own key pair: for tenant boundaries. */
  async otherPublication(): Promise<{ publicationId: string; publishableKey: string; secretKey: string }> {
    const created = await this.admin('/admin/publications', { body: { name: `Other ${randomUUID().slice(0, 6)}`, domains: [`other-${randomUUID()}.example`] } });
    const session = sessionFrom(await this.api('/admin/session', { body: ADMIN }));
    await this.api('/admin/session/publication', { method: 'PUT', session, body: { publicationId: created.body.id } });
    const keys = await this.api('/admin/api-keys', { session, body: { name: 'other-site' } });
    return { publicationId: created.body.id, ...keys.body };
  }

  /** Processor settings with a supplied webhook secret: no endpoint is created, and events are signed with WEBHOOK_SECRET. */
  async connectProcessor(): Promise<void> {
    const saved = await this.admin('/admin/processor', { method: 'PUT', body: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } });
    if (saved.status !== 200) throw new Error(`saving processor settings: ${saved.status} ${JSON.stringify(saved.body)}`);
  }

  async product(body: Record<string, unknown> = { name: `Plan ${randomUUID().slice(0, 8)}` }): Promise<any> {
    const res = await this.admin('/admin/products', { body });
    if (res.status !== 201) throw new Error(`creating a product: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async price(productId: string, body: Record<string, unknown> = { currency: 'eur', unitAmount: 900, interval: 'month' }): Promise<any> {
    const res = await this.admin(`/admin/products/${productId}/prices`, { body });
    if (res.status !== 201) throw new Error(`creating a price: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** The processor's id of a price, as billing recorded it. */
  async processorPriceId(priceId: string): Promise<string> {
    const [row] = await this.query<{ processor_price_id: string }>('SELECT processor_price_id FROM prices WHERE id = $1', [priceId]);
    return row.processor_price_id;
  }

  async customer(): Promise<Customer> {
    const email = `reader-${randomUUID()}@example.com`;
    const res = await this.api('/auth/customers/register', { key: this.publishableKey, body: { email, password: 'reader-password', name: 'Reader' } });
    if (res.status !== 201) throw new Error(`registering: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.customer.id, email, accessToken: res.body.accessToken };
  }

  async checkout(customer: Customer, priceId: string, extra: Record<string, unknown> = {}): Promise<Answer> {
    return this.api('/subscriptions/checkout', {
      key: this.secretKey,
      body: { priceId, customerId: customer.id, successUrl: 'https://billing.example/ok', cancelUrl: 'https://billing.example/no', ...extra },
    });
  }

  /** Checks out, pays at the processor, and delivers what the processor then sends: the customer's first subscription. */
  async subscribe(customer: Customer, priceId: string, options: { status?: string; created?: number } = {}): Promise<{ subscription: any; processorSubscriptionId: string }> {
    const started = await this.checkout(customer, priceId);
    if (started.status !== 201) throw new Error(`checkout: ${started.status} ${JSON.stringify(started.body)}`);
    const paid = await this.fake.completeCheckout(started.body.sessionId, options);
    for (const event of paid.events) await this.deliverOk(event);
    const subscription = await eventually(async () => (await this.subscriptionsOf(customer.id))[0]);
    return { subscription, processorSubscriptionId: paid.subscription!['id'] };
  }

  /** Delivers an event to the inbound route, signed with the publication's webhook secret unless told otherwise. */
  deliver(event: object, options: { publication?: string | null; secret?: string; timestamp?: number; signature?: string | null } = {}): Promise<Answer> {
    const publication = options.publication === undefined ? this.publicationId : options.publication;
    const target = `${this.gateway.url}/api/v1/webhooks/processor${publication ? `?publication=${publication}` : ''}`;
    return this.fake.deliver(target, options.secret ?? WEBHOOK_SECRET, event, options);
  }

  async deliverOk(event: object): Promise<void> {
    const answer = await this.deliver(event);
    if (answer.status !== 200) throw new Error(`delivering: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  /** subscriptions/me with the secret key. */
  async subscriptionsOf(customerId: string): Promise<any[]> {
    const res = await this.api(`/subscriptions/me?customerId=${customerId}`, { key: this.secretKey });
    if (res.status !== 200) throw new Error(`subscriptions/me: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.subscriptions;
  }

  /** Waits until subscriptions/me shows the first subscription matching `expected`. */
  async eventuallySubscription(customerId: string, expected: Record<string, unknown>): Promise<any> {
    return eventually(async () => {
      const [subscription] = await this.subscriptionsOf(customerId);
      return subscription && Object.entries(expected).every(([key, value]) => subscription[key] === value) ? subscription : undefined;
    });
  }

  /** Starts collecting what billing publishes on the event stream, from the beginning, as another service would consume it. */
  async readOutboundEvents(): Promise<void> {
    this.events = await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, this.namespace);
    const names = [
      'subscription.created',
      'subscription.updated',
      'subscription.cancelled',
      'subscription.trial_ended',
      'invoice.paid',
      'invoice.payment_failed',
      'invoice.upcoming',
      'experiment.converted',
      'internal.entitlements.changed',
    ];
    this.reader = await this.events.consume('test-reader', names, async (envelope) => void this.outbound.push(envelope));
  }

  outboundFor(name: string, match: (data: any) => boolean = () => true): EventEnvelope<any>[] {
    return this.outbound.filter((envelope) => envelope.name === name && match(envelope.data));
  }

  async close(): Promise<void> {
    await this.reader?.stop();
    await this.events?.close();
    await this.bus?.onApplicationShutdown();
    await this.sql?.end();
    await this.gateway?.close();
    for (const service of this.services) await service.close();
    await this.fake?.close();
    await this.db?.drop();
    await deleteEventStream([testNatsUrl()], this.namespace);
  }
}


export const unixNow = (): number => Math.floor(Date.now() / 1000);
