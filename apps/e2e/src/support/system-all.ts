import { AccessConfig, accessService } from '@gatehouse/access';
import { adminService } from '@gatehouse/admin';
import { billingService } from '@gatehouse/billing';
import { brandingService } from '@gatehouse/branding';
import { deleteEventStream } from '@gatehouse/bus';
import { type RunningService, startService } from '@gatehouse/runtime';
import type { AccessCheckResult, PaywallDraft, PaywallView } from '@gatehouse/contracts';
import { identityService } from '@gatehouse/identity';
import { webhooksOutService } from '@gatehouse/webhooks-out';
import { SystemClock, loadConfig, type Clock } from '@gatehouse/platform';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { FakeProcessorProcess, PUBLIC_BASE_URL, SECRET_KEY, WEBHOOK_SECRET, type ProcessorEvent } from './billing';
import { call, sessionFrom, type Answer, type Call } from './http';
import { staffSession } from './staff';
import { startGatewayOverNats, startServiceOverNats, type TestGateway } from './system';
import { WEBHOOKS_ENV } from './webhooks';

export const SITE = 'https://all.example';
const ADMIN = { email: 'all-admin@example.com', password: 'all-admin-password' };
const staffEnv = (domains: string[]) => ({
  BCRYPT_COST: '4',
  BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
  BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
  BOOTSTRAP_PUBLICATION_NAME: 'All Services Daily',
  BOOTSTRAP_PUBLICATION_DOMAINS: ['all.example', ...domains].join(','),
});

export interface Reader {
  id: string;
  accessToken: string;
}

export interface SystemOptions {
  /** The time access and billing read; the system's unless given. */
  clock?: Clock;
  /** More configuration of the access service, e.g. PAST_DUE_GRACE_DAYS. */
  accessEnv?: Record<string, string>;
  /** Also start webhooks-out and branding, so every route of the API has its service. */
  everyService?: boolean;
  /** More configuration of identity, e.g. SMTP_URL. */
  identityEnv?: Record<string, string>;
  /** More configuration of the gateway, e.g. TRUST_PROXY. */
  gatewayEnv?: Record<string, string>;
  /** The time identity signs tokens with: set back, its access tokens expire sooner in real time. */
  identityClock?: Clock;
  /** Domains of the publication besides all.example (a browser test's page host). */
  domains?: string[];
  /** How many access replicas share the work (1 unless given). */
  accessReplicas?: number;
}

/**
 * Identity, admin, access and billing, each its own Nest application over the machine's NATS and
 * PostgreSQL, the gateway in front, billing pointed at the fake processor (its own process), and
 * the processor connected with a supplied webhook secret: what a publication running every
 * feature looks like, for tests of features that meet across services.
 */
export class WholeSystem {
  readonly namespace = uniqueNamespace('all');
  fake!: FakeProcessorProcess;
  session = '';
  publicationId = '';
  publishableKey = '';
  secretKey = '';
  private db!: TestDatabase;
  private gateway!: TestGateway;
  private gatewayStopped = false;
  private readonly services: RunningService[] = [];

  private constructor(private readonly clock: Clock) {}

  static async start(options: SystemOptions = {}): Promise<WholeSystem> {
    const system = new WholeSystem(options.clock ?? new SystemClock());
    await system.boot(options);
    return system;
  }

  /** The gateway's base URL, e.g. http://127.0.0.1:41234. */
  get url(): string {
    return this.gateway.url;
  }

  /** The database every service of this system uses. */
  get databaseUrl(): string {
    return this.db.url;
  }

  /** Stops the public edge, as an outage would: the services behind it keep running. */
  async stopGateway(): Promise<void> {
    this.gatewayStopped = true;
    await this.gateway.close();
  }

  /** The access replicas running, each answering from its own memory. */
  get accessReplicas(): RunningService[] {
    return this.services.filter((service) => service.name === 'access');
  }

  private async boot({ accessEnv = {}, identityClock, domains = [], everyService = false, gatewayEnv = {}, identityEnv = {}, accessReplicas = 1 }: SystemOptions): Promise<void> {
    [this.db, this.fake] = await Promise.all([createTestDatabase(), FakeProcessorProcess.spawn()]);
    const transport = { kind: 'nats' as const, servers: [testNatsUrl()] };
    const common = { LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent', NATS_URL: testNatsUrl(), DATABASE_URL: this.db.url, BUS_NAMESPACE: this.namespace };
    // A check waits on billing at most this long: the longest allowed, so a busy machine does not turn a subscriber away.
    const accessConfig = loadConfig(AccessConfig, { ...common, ENTITLEMENTS_TIMEOUT_MS: '5000', ...accessEnv });
    const billingConfig = loadConfig(billingService.config, {
      ...common,
      PROCESSOR_API_URL: this.fake.url,
      PUBLIC_BASE_URL,
      PROCESSOR_SETTINGS_KEY: randomBytes(32).toString('base64'),
    });
    const identityConfig = loadConfig(identityService.config, { ...common, ...staffEnv(domains), ...identityEnv });
    this.services.push(
      ...(await Promise.all([
        startService(identityService, { config: identityConfig, transport, databaseUrl: this.db.url, clock: identityClock, migrate: true }),
        startServiceOverNats(adminService, this.db.url, this.namespace, staffEnv(domains)),
        ...Array.from({ length: accessReplicas }, () => startService(accessService, { config: accessConfig, transport, databaseUrl: this.db.url, clock: this.clock, migrate: true })),
        startService(billingService, { config: billingConfig, transport, databaseUrl: this.db.url, clock: this.clock, migrate: true }),
        ...(everyService
          ? [startServiceOverNats(webhooksOutService, this.db.url, this.namespace, WEBHOOKS_ENV), startServiceOverNats(brandingService, this.db.url, this.namespace)]
          : []),
      ])),
    );
    this.gateway = await startGatewayOverNats(this.namespace, gatewayEnv);

    const login = await this.api('/admin/session', { body: ADMIN });
    this.session = sessionFrom(login);
    this.publicationId = login.body.publication.id;
    const keys = await this.admin('/admin/api-keys', { body: { name: 'site' } });
    ({ publishableKey: this.publishableKey, secretKey: this.secretKey } = keys.body);
    await this.answered(200, '/admin/processor', { method: 'PUT', session: this.session, body: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } });
  }

  api<T = any>(path: string, options: Call = {}): Promise<Answer<T>> {
    return call<T>(this.gateway.url, `/api/v1${path}`, options);
  }

  /** An admin call on the session, as the dashboard makes it. */
  admin<T = any>(path: string, options: Call = {}): Promise<Answer<T>> {
    return this.api<T>(path, { session: this.session, ...options });
  }

  /** `GET /access/check` of a path on SITE with the publishable key: the decision, failing on any status but 200. */
  async decision(path: string, query: Record<string, string> = {}, options: Call = {}): Promise<AccessCheckResult> {
    const params = new URLSearchParams({ url: `${SITE}${path}`, ...query });
    return (await this.answered(200, `/access/check?${params}`, { key: this.publishableKey, ...options })).body;
  }

  /** What a reader's browser sees: `decision` with the reader's JWT. */
  decisionFor(reader: Reader, path: string): Promise<AccessCheckResult> {
    return this.decision(path, {}, { token: reader.accessToken });
  }

  /** `POST /events` with the publishable key: one event or a batch, answered 202. */
  async track(body: unknown): Promise<void> {
    await this.answered(202, '/events', { key: this.publishableKey, body });
  }

  async paywall(draft: PaywallDraft): Promise<PaywallView> {
    return (await this.answered(201, '/admin/paywalls', { session: this.session, body: draft })).body;
  }

  async product(name: string, entitlements: string[] = []): Promise<{ id: string }> {
    return (await this.answered(201, '/admin/products', { session: this.session, body: { name, entitlements } })).body;
  }

  async price(productId: string, body: { currency: string; unitAmount: number; interval: 'month' | 'year' | 'lifetime'; trialDays?: number }): Promise<{ id: string }> {
    return (await this.answered(201, `/admin/products/${productId}/prices`, { session: this.session, body })).body;
  }

  async reader(): Promise<Reader> {
    const body = { email: `reader-${randomUUID()}@example.com`, password: 'reader-password', name: 'Reader' };
    const registered = await this.answered(201, '/auth/customers/register', { key: this.publishableKey, body });
    return { id: registered.body.customer.id, accessToken: registered.body.accessToken };
  }

  /** A subscription granted by hand in the dashboard: active for good. */
  async grant(reader: Reader, priceId: string): Promise<{ subscriptionId: string }> {
    return (await this.answered(201, '/admin/subscriptions', { session: this.session, body: { customerId: reader.id, priceId } })).body;
  }

  /**
   * A checkout the reader pays at the processor, and what the processor then sends, signed: the
   * reader's newest subscription once billing stored it, and its id at the processor.
   */
  async subscribe(reader: Reader, priceId: string, experiment: { experimentId: string; variantId: string } | object = {}): Promise<{ subscriptionId: string; status: string; processorId: string }> {
    const before = (await this.subscriptionsOf(reader)).length;
    const started = await this.answered(201, '/subscriptions/checkout', {
      key: this.secretKey,
      body: { priceId, customerId: reader.id, successUrl: `${SITE}/thanks`, cancelUrl: `${SITE}/pricing`, ...experiment },
    });
    const paid = await this.fake.completeCheckout(started.body.sessionId, { created: this.processorNow() });
    for (const event of paid.events) await this.deliver(event);
    const subscription = await eventually(async () => {
      const subscriptions = await this.subscriptionsOf(reader);
      return subscriptions.length > before ? subscriptions[0] : undefined;
    });
    return { ...subscription, processorId: paid.subscription!['id'] };
  }

  /** Delivers a processor event to the webhook route, signed at the time billing reads. */
  async deliver(event: ProcessorEvent): Promise<void> {
    const target = `${this.gateway.url}/api/v1/webhooks/processor?publication=${this.publicationId}`;
    const answer = await this.fake.deliver(target, WEBHOOK_SECRET, event, { timestamp: this.processorNow() });
    if (answer.status !== 200) throw new Error(`delivering ${event.type}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  /** The processor's own time for its events: the time billing reads, in its whole seconds. */
  processorNow(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  /** subscriptions/me with the secret key, newest first. */
  async subscriptionsOf(reader: Reader): Promise<Array<{ subscriptionId: string; status: string }>> {
    return (await this.answered(200, `/subscriptions/me?customerId=${reader.id}`, { key: this.secretKey })).body.subscriptions;
  }

  /** Waits until the reader's newest subscription has that status. */
  eventuallyStatus(reader: Reader, status: string): Promise<unknown> {
    return eventually(async () => ((await this.subscriptionsOf(reader))[0]?.status === status ? true : undefined));
  }

  /** A staff member of this publication with that role, logged in (the dashboard has no staff invitations). */
  async staffSession(role: 'admin' | 'viewer'): Promise<string> {
    return (await staffSession(this.gateway.url, this.db.url, role, this.publicationId)).session;
  }

  /** A session of the same admin on a new publication of theirs, leaving the main session where it is. */
  async otherPublicationSession(): Promise<{ session: string; publicationId: string }> {
    const created = await this.answered(201, '/admin/publications', { session: this.session, body: { name: `Other ${randomUUID().slice(0, 6)}`, domains: [`other-${randomUUID()}.example`] } });
    const session = sessionFrom(await this.answered(200, '/admin/session', { body: ADMIN }));
    await this.answered(200, '/admin/session/publication', { method: 'PUT', session, body: { publicationId: created.body.id } });
    return { session, publicationId: created.body.id };
  }

  async close(): Promise<void> {
    if (!this.gatewayStopped) await this.gateway?.close();
    for (const service of this.services) await service.close();
    await this.fake?.close();
    await this.db?.drop();
    await deleteEventStream([testNatsUrl()], this.namespace);
  }

  /** A call that must answer `status`, failing with what it answered otherwise. */
  private async answered(status: number, path: string, options: Call): Promise<Answer> {
    const answer = await this.api(path, options);
    if (answer.status !== status) {
      throw new Error(`${options.method ?? (options.body === undefined ? 'GET' : 'POST')} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return answer;
  }
}
