import { accessService } from '@gatehouse/access';
import { adminService } from '@gatehouse/admin';
import { billingService } from '@gatehouse/billing';
import { brandingService } from '@gatehouse/branding';
import { BusClient, type BusOptions, createRequestClient, deleteEventStream } from '@gatehouse/bus';
import type { RequestPattern } from '@gatehouse/contracts';
import type { AccessCheckResult, EventEnvelope, PaywallDraft, PaywallView } from '@gatehouse/contracts';
import { identityService } from '@gatehouse/identity';
import { loadConfig, ManualClock, SystemClock, type Clock, type ServiceDefinition } from '@gatehouse/platform';
import { startService, type RunningService } from '@gatehouse/runtime';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { webhooksOutService } from '@gatehouse/webhooks-out';
import { randomBytes, randomUUID } from 'node:crypto';
import { ADMIN, READER_PASSWORD } from './constants';
import { EventProducer, EventReader } from './events';
import { FakeProcessorProcess, PUBLIC_BASE_URL, SECRET_KEY, WEBHOOK_SECRET, type ProcessorEvent } from './fake-processor';
import { call, type Answer, type Call } from './http';
import { adminSession, bootstrapEnv, staffSession, type Publication } from './staff';
import { querySchema, startGatewayOverNats, type TestGateway } from './system';

/** The services a test system can run, each its own Nest application over the real NATS and PostgreSQL. */
export const SERVICES = { identity: identityService, admin: adminService, access: accessService, billing: billingService, branding: brandingService, 'webhooks-out': webhooksOutService } as const;
export type ServiceName = keyof typeof SERVICES;

/** webhooks-out settings for tests: a fixed encryption key (nothing written under DATA_DIR) and local receivers allowed. */
export const WEBHOOKS_ENV = {
  WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'),
  ALLOW_INSECURE_WEBHOOK_URLS: 'true',
};

/** A service's configuration in tests unless the test gives its own. */
const TEST_ENV: Partial<Record<ServiceName, Record<string, string>>> = { 'webhooks-out': WEBHOOKS_ENV };

export interface TestSystemOptions {
  /** The prefix of the system's bus namespace, e.g. 'billing'. */
  name: string;
  /** The services started (admin always is: it keeps the staff). */
  services: ServiceName[];
  /** The bootstrap publication ADMIN administers. */
  publication: Publication;
  /** More configuration of a service (or the gateway), over what the system sets; webhooks-out's replaces WEBHOOKS_ENV. */
  env?: Partial<Record<ServiceName | 'gateway', Record<string, string>>>;
  /** The time a service reads; the system's unless given. */
  clocks?: Partial<Record<ServiceName, Clock>>;
  /** How many access replicas share the work (1 unless given). */
  accessReplicas?: number;
  /** Spawn tools/fake-processor as its own process and point billing at it. */
  processor?: boolean;
  /** After the login: connect the processor with a supplied webhook secret (SECRET_KEY, WEBHOOK_SECRET). */
  connectProcessor?: boolean;
  /** Sign ADMIN in (the default); with `keys`, also make a key pair of that name. */
  login?: boolean;
  keys?: string;
  /** A bus client on the system's namespace, as another service would send requests (`request`). */
  busClient?: boolean;
  /** The schema `query` reads: the tables of the service under test, e.g. 'billing'. */
  ownSchema?: string;
  /** The path of the system's `url` on the gateway, e.g. '/dashboard' (the gateway's root unless given). */
  home?: string;
  /** An outbox of the test's own (`producer`) from which it emits events as their owners do. */
  producer?: boolean;
}

/** A reader registered with the publishable key: a customer of identity with their access token. */
export interface Reader {
  /** The customer's id (the same as `customer.id`). */
  id: string;
  email: string;
  accessToken: string;
  customer: { id: string; email: string; name: string };
}

/** The events billing publishes, which `readOutboundEvents` collects unless told others. */
export const BILLING_EVENTS = [
  'subscription.created',
  'subscription.updated',
  'subscription.cancelled',
  'subscription.trial_ended',
  'subscription.paused',
  'subscription.resumed',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.upcoming',
  'experiment.converted',
  'pass.purchased',
  'article.purchased',
  'internal.entitlements.changed',
];

/**
 * What a spec sees of a running Gatehouse, whichever way it runs (a `TestSystem`, or `npm start` as
 * a child process, `LocalStart`): a spec written against it runs against either.
 */
export interface RunningSystem {
  /** The system's home address, e.g. http://127.0.0.1:41234 (or its /dashboard). */
  readonly url: string;
  /** The database the system stores in. */
  readonly databaseUrl: string;
  /** The bootstrap admin, who can sign in. */
  readonly adminAccount: { email: string; password: string };
  /** A call to `/api/v1<path>` at the gateway. */
  api<T = any>(path: string, options?: Call): Promise<Answer<T>>;
  /** A staff member's session cookie (the bootstrap admin's unless given), signed in as the dashboard does. */
  sessionOf(account?: { email: string; password: string }): Promise<string>;
  close(): Promise<void>;
}

const systemClock = new SystemClock();

/**
 * The one system fixture of the e2e tests: a fresh database and bus namespace, the services a test
 * names, each its own Nest application in this process over the machine's NATS and PostgreSQL (as
 * a deployment runs them, one process each), the fake processor as a separate process when billing
 * needs one, and the gateway in front; ADMIN signed in with a key pair unless told otherwise.
 * It holds every helper the specs use; the presets (AccessSystem, BillingSystem, DashboardSystem,
 * WholeSystem, WebhooksSystem) are start functions giving it its services, publication, env and
 * clocks. Its other mode, `npm start` itself as a child process, is `LocalStart` (./local-start):
 * both are a `RunningSystem`.
 */
export class TestSystem implements RunningSystem {
  namespace = '';
  /** The bootstrap admin's session and its publication. */
  session = '';
  publicationId = '';
  publishableKey = '';
  secretKey = '';
  db!: TestDatabase;
  gateway!: TestGateway;
  fake!: FakeProcessorProcess;
  /** The outbox of the test's own (`producer`). */
  producer!: EventProducer;
  private options!: TestSystemOptions;
  private eventReader?: EventReader;
  private readonly services: RunningService[] = [];
  private bus?: BusClient;
  private gatewayStopped = false;
  /** Billing's key for the processor settings it stores, the same for every start of it. */
  private readonly processorSettingsKey = randomBytes(32).toString('base64');

  /** Starts a system; the presets (./access, ./billing, …) call it with their options. */
  static async boot(options: TestSystemOptions): Promise<TestSystem> {
    const system = new TestSystem();
    try {
      await system.bootWith(options);
    } catch (error) {
      await system.close().catch(() => undefined);
      throw error;
    }
    return system;
  }

  private async bootWith(options: TestSystemOptions): Promise<void> {
    this.options = options;
    this.namespace = uniqueNamespace(options.name);
    const services = ['admin' as ServiceName, ...options.services.filter((name) => name !== 'admin')];
    const [db, fake] = await Promise.all([createTestDatabase(), options.processor ? FakeProcessorProcess.spawn() : undefined]);
    this.db = db;
    if (fake) this.fake = fake;
    const started = services.flatMap((name) => Array.from({ length: name === 'access' ? (options.accessReplicas ?? 1) : 1 }, () => this.launch(name)));
    this.services.push(...(await Promise.all(started)));
    this.gateway = await startGatewayOverNats(this.namespace, options.env?.gateway);
    if (options.busClient) {
      const bus: BusOptions = { service: 'gateway', namespace: this.namespace, transport: { kind: 'nats', servers: [testNatsUrl()] } };
      this.bus = new BusClient(bus, createRequestClient(bus));
    }
    if (options.producer) this.producer = await EventProducer.start(this.db.url, this.namespace);
    if (options.login === false) return;
    ({ session: this.session, publicationId: this.publicationId } = await adminSession(this.gateway.url));
    if (options.keys) ({ publishableKey: this.publishableKey, secretKey: this.secretKey } = (await this.answered(201, '/admin/api-keys', { session: this.session, body: { name: options.keys } })).body);
    if (options.connectProcessor) await this.connectProcessor();
  }

  /** The configuration the system gives a service, before a test's own (`options.env`). */
  private envOf(name: ServiceName): Record<string, string> {
    switch (name) {
      case 'admin':
        return bootstrapEnv(this.options.publication);
      case 'identity':
        return { BCRYPT_COST: '4' };
      case 'billing':
        return { PUBLIC_BASE_URL, PROCESSOR_SETTINGS_KEY: this.processorSettingsKey, ...(this.fake ? { PROCESSOR_API_URL: this.fake.url } : {}) };
      default:
        return {};
    }
  }

  /** Boots one instance of a service; `env` in place of the test's configuration of it (`options.env`, or its default here). */
  private async launch(name: ServiceName, env?: Record<string, string>): Promise<RunningService> {
    const definition = SERVICES[name] as ServiceDefinition<any>;
    const config = loadConfig(definition.config, {
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
      NATS_URL: testNatsUrl(),
      DATABASE_URL: this.db.url,
      BUS_NAMESPACE: this.namespace,
      ...this.envOf(name),
      ...(env ?? this.options.env?.[name] ?? TEST_ENV[name]),
    });
    return startService(definition, { config, transport: { kind: 'nats', servers: [testNatsUrl()] }, databaseUrl: this.db.url, clock: this.options.clocks?.[name], migrate: true });
  }

  /**
   * One more instance of a service on the system's database and bus (another replica, or a
   * restart), closed with the system; `env` in place of the test's configuration of it.
   */
  async startReplica(name: ServiceName, env?: Record<string, string>): Promise<RunningService> {
    const service = await this.launch(name, env);
    this.services.push(service);
    return service;
  }

  /** Stops a running service gracefully (as SIGTERM does), so it is no longer closed with the system. */
  async stopReplica(service: RunningService): Promise<void> {
    this.services.splice(this.services.indexOf(service), 1);
    await service.close();
  }

  /** The running instances of a service. */
  replicasOf(name: ServiceName): RunningService[] {
    return this.services.filter((service) => service.name === name);
  }

  /** The access replicas running, each answering from its own memory. */
  get accessReplicas(): RunningService[] {
    return this.replicasOf('access');
  }

  /** The system's home: the gateway's base URL, e.g. http://127.0.0.1:41234, and the preset's `home` path on it (the dashboard's /dashboard). */
  get url(): string {
    return `${this.gateway.url}${this.options.home ?? ''}`;
  }

  /** The publication's site: its first domain, e.g. https://news.example.com. */
  get site(): string {
    return `https://${this.options.publication.domains[0]}`;
  }

  /** The bootstrap admin, who can sign in. */
  get adminAccount(): { email: string; password: string } {
    return ADMIN;
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

  api<T = any>(path: string, options: Call = {}): Promise<Answer<T>> {
    return call<T>(this.gateway.url, `/api/v1${path}`, options);
  }

  /** An admin call on the bootstrap admin's session, as the dashboard makes it. */
  admin<T = any>(path: string, options: Call = {}): Promise<Answer<T>> {
    return this.api<T>(path, { session: this.session, ...options });
  }

  /** A bus request as another service would send it (`busClient`). */
  request<Req, Res>(pattern: RequestPattern<Req, Res>, payload: NoInfer<Req>): Promise<Res> {
    return this.busClient.request(pattern, payload);
  }

  /** The bus client on the system's namespace (`busClient`), as admin's stats view would call access. */
  get busClient(): BusClient {
    if (!this.bus) throw new Error('the system was started without busClient');
    return this.bus;
  }

  /** Reads one service's schema directly, to see what it stores. */
  querySchema<T = any>(schema: string, text: string, params: unknown[] = []): Promise<T[]> {
    return querySchema<T>(this.db.url, schema, text, params);
  }

  /** A staff member of a publication (a new one of their own unless given) with that role, logged in. */
  staffSession(role: 'admin' | 'viewer', publicationId?: string): Promise<{ session: string; publicationId: string }> {
    return staffSession(this.gateway.url, this.db.url, role, publicationId);
  }

  /** A second publication of ADMIN, on a session of its own switched to it, leaving the main session where it is. */
  async otherPublicationSession(): Promise<{ session: string; publicationId: string }> {
    const created = await this.answered(201, '/admin/publications', { session: this.session, body: { name: `Other ${randomUUID().slice(0, 6)}`, domains: [`other-${randomUUID()}.example`] } });
    const session = await this.sessionOf();
    await this.answered(200, '/admin/session/publication', { method: 'PUT', session, body: { publicationId: created.body.id } });
    return { session, publicationId: created.body.id };
  }

  /** A second publication of the same admin, with its own key pair: for tenant boundaries. */
  async otherPublication(): Promise<{ publicationId: string; publishableKey: string; secretKey: string }> {
    const { session, publicationId } = await this.otherPublicationSession();
    const keys = await this.answered(201, '/admin/api-keys', { session, body: { name: 'other-site' } });
    return { publicationId, ...keys.body };
  }

  /** A staff member's session cookie (ADMIN's unless given), signed in through the gateway as the dashboard does. */
  async sessionOf(account: { email: string; password: string } = ADMIN): Promise<string> {
    return (await adminSession(this.gateway.url, account)).session;
  }

  /** Reads the preset's own schema (`ownSchema`: billing's, webhooks-out's) directly, to see what is (not) stored. */
  query<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    if (!this.options.ownSchema) throw new Error('the system was started without ownSchema: use querySchema');
    return this.querySchema<T>(this.options.ownSchema, text, params);
  }

  /** Reads or changes admin's schema directly, e.g. to let a session run out. */
  adminSql<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.querySchema<T>('admin', text, params);
  }

  /* Time */

  /** The time access reads, which the test moves (the access preset's ManualClock). */
  get clock(): ManualClock {
    const clock = this.options.clocks?.access;
    if (!(clock instanceof ManualClock)) throw new Error('the system was started without a ManualClock for access');
    return clock;
  }

  /** The processor's own time for its events: the time billing reads, in its whole seconds. */
  processorNow(): number {
    return Math.floor((this.options.clocks?.billing ?? systemClock).now().getTime() / 1000);
  }

  /* Readers and access */

  /** A new reader, registered with the publishable key. */
  async reader(): Promise<Reader> {
    const body = { email: `reader-${randomUUID()}@example.com`, password: READER_PASSWORD, name: 'Reader' };
    const registered = await this.answered(201, '/auth/customers/register', { key: this.publishableKey, body });
    const { customer, accessToken } = registered.body;
    return { id: customer.id, email: customer.email, accessToken, customer };
  }

  /** `GET /access/check` with the publishable key; `query.url` may be a path on the site. */
  check(query: Record<string, string>, options: Call = {}): Promise<Answer<AccessCheckResult>> {
    const url = query['url']?.startsWith('/') ? `${this.site}${query['url']}` : query['url'];
    const params = new URLSearchParams(Object.entries({ ...query, url }).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return this.api<AccessCheckResult>(`/access/check?${params}`, { key: this.publishableKey, ...options });
  }

  /** The body of a granted-or-denied check, failing on any other status. */
  async decision(query: Record<string, string>, options: Call = {}): Promise<AccessCheckResult> {
    const answer = await this.check(query, options);
    if (answer.status !== 200) throw new Error(`access check answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  /** What a reader's browser sees: the decision on a path of the site with the reader's JWT. */
  decisionFor(reader: { accessToken: string }, path: string): Promise<AccessCheckResult> {
    return this.decision({ url: path }, { token: reader.accessToken });
  }

  /** `POST /events` with the publishable key: one event or a batch. */
  track(body: unknown, options: Call = {}): Promise<Answer> {
    return this.api('/events', { key: this.publishableKey, body, ...options });
  }

  async paywall(draft: PaywallDraft): Promise<PaywallView> {
    return (await this.answered(201, '/admin/paywalls', { session: this.session, body: draft })).body;
  }

  /* Catalog and subscriptions */

  /** Processor settings with a supplied webhook secret: no endpoint is created, and events are signed with WEBHOOK_SECRET. */
  async connectProcessor(): Promise<void> {
    await this.answered(200, '/admin/processor', { method: 'PUT', session: this.session, body: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } });
  }

  /** `POST /admin/products` with that body (a random name unless given). */
  async product(body: { name?: string; entitlements?: string[]; [field: string]: unknown } = {}): Promise<any> {
    return (await this.answered(201, '/admin/products', { session: this.session, body: { name: `Plan ${randomUUID().slice(0, 8)}`, ...body } })).body;
  }

  /** `POST /admin/products/:id/prices`, 9 EUR a month unless given. */
  async price(productId: string, body: Record<string, unknown> = { currency: 'eur', unitAmount: 900, interval: 'month' }): Promise<any> {
    return (await this.answered(201, `/admin/products/${productId}/prices`, { session: this.session, body })).body;
  }

  /** The processor's id of a price, as billing recorded it. */
  async processorPriceId(priceId: string): Promise<string> {
    const [row] = await this.querySchema<{ processor_price_id: string }>('billing', 'SELECT processor_price_id FROM prices WHERE id = $1', [priceId]);
    return row.processor_price_id;
  }

  /** A subscription granted by hand in the dashboard: active for good. */
  async grant(reader: { id: string }, priceId: string): Promise<{ subscriptionId: string }> {
    return (await this.answered(201, '/admin/subscriptions', { session: this.session, body: { customerId: reader.id, priceId } })).body;
  }

  /** `POST /subscriptions/checkout` with the secret key, back to the site's /ok or /no. */
  checkout(reader: { id: string }, priceId: string, extra: Record<string, unknown> = {}): Promise<Answer> {
    return this.api('/subscriptions/checkout', {
      key: this.secretKey,
      body: { priceId, customerId: reader.id, successUrl: `${this.site}/ok`, cancelUrl: `${this.site}/no`, ...extra },
    });
  }

  /**
   * A checkout the reader pays at the processor (at the time billing reads unless `created`), and
   * what the processor then sends, signed: the reader's newest subscription once billing stored it
   * (its fields, and as `subscription`), and its id at the processor. Any other option (`experimentId`, `offerCode`, …) goes with the checkout.
   */
  async subscribe(
    reader: { id: string },
    priceId: string,
    options: { status?: string; created?: number; [checkoutField: string]: unknown } = {},
  ): Promise<{ subscription: any; subscriptionId: string; status: string; processorId: string; [field: string]: any }> {
    const { status, created, ...experiment } = options;
    const before = (await this.subscriptionsOf(reader.id)).length;
    const started = await this.checkout(reader, priceId, experiment);
    if (started.status !== 201) throw new Error(`checkout: ${started.status} ${JSON.stringify(started.body)}`);
    const paid = await this.fake.completeCheckout(started.body.sessionId, { status: status as string | undefined, created: (created as number | undefined) ?? this.processorNow() });
    for (const event of paid.events) await this.deliverOk(event);
    const subscription = await eventually(async () => {
      const subscriptions = await this.subscriptionsOf(reader.id);
      return subscriptions.length > before ? subscriptions[0] : undefined;
    });
    return { ...subscription, subscription, processorId: paid.subscription!['id'] };
  }

  /**
   * Delivers a processor event to the inbound route, signed with the publication's webhook secret
   * at the time billing reads, unless told otherwise.
   */
  deliver(event: object, options: { publication?: string | null; secret?: string; timestamp?: number; signature?: string | null } = {}): Promise<Answer> {
    const publication = options.publication === undefined ? this.publicationId : options.publication;
    const target = `${this.gateway.url}/api/v1/webhooks/processor${publication ? `?publication=${publication}` : ''}`;
    return this.fake.deliver(target, options.secret ?? WEBHOOK_SECRET, event, { ...options, timestamp: options.timestamp ?? this.processorNow() });
  }

  /** `deliver`, failing unless it is answered 200. */
  async deliverOk(event: object): Promise<void> {
    const answer = await this.deliver(event);
    if (answer.status !== 200) throw new Error(`delivering ${(event as ProcessorEvent).type}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  /** subscriptions/me with the secret key, newest first. */
  async subscriptionsOf(customerId: string): Promise<any[]> {
    return (await this.answered(200, `/subscriptions/me?customerId=${customerId}`, { key: this.secretKey })).body.subscriptions;
  }

  /** Waits until subscriptions/me shows the first subscription matching `expected`. */
  eventuallySubscription(customerId: string, expected: Record<string, unknown>): Promise<any> {
    return eventually(async () => {
      const [subscription] = await this.subscriptionsOf(customerId);
      return subscription && Object.entries(expected).every(([key, value]) => subscription[key] === value) ? subscription : undefined;
    });
  }

  /** Waits until the reader's newest subscription has that status. */
  eventuallyStatus(reader: { id: string }, status: string): Promise<unknown> {
    return eventually(async () => ((await this.subscriptionsOf(reader.id))[0]?.status === status ? true : undefined));
  }

  /**
   * A checkout the customer pays at the processor `fake` (a local one of the test), whose events are
   * then delivered signed as the processor would (the processor connected with WEBHOOK_SECRET
   * supplied): a conversion, counted for the experiment variant it carries.
   */
  async paidCheckout(
    fake: FakeProcessorProcess,
    secretKey: string,
    publicationId: string,
    body: { customerId: string; priceId: string; experimentId?: string; variantId?: string; paywallId?: string },
  ): Promise<void> {
    const started = await this.api('/subscriptions/checkout', { key: secretKey, body: { successUrl: `${this.site}/thanks`, cancelUrl: `${this.site}/pricing`, ...body } });
    if (started.status !== 201) throw new Error(`checkout: ${started.status} ${JSON.stringify(started.body)}`);
    const paid = await fake.completeCheckout(started.body.sessionId);
    for (const event of paid.events) {
      const answer = await fake.deliver(`${this.gateway.url}/api/v1/webhooks/processor?publication=${publicationId}`, WEBHOOK_SECRET, event);
      if (answer.status !== 200) throw new Error(`delivering ${event.type}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  }

  /**
   * Something on every screen, made through the API as the owner: a key pair, a segment, a paywall
   * with an experiment, a product with a price, a customer, a webhook (needs billing and identity).
   */
  async seedEveryScreen(): Promise<void> {
    const session = await this.sessionOf();
    const made = async (path: string, body: unknown) => (await this.answered(201, path, { session, body })).body;
    await made('/admin/api-keys', { name: 'website' });
    const segment = await made('/admin/segments', { name: 'Mobile readers', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] });
    const paywall = await made('/admin/paywalls', { name: 'Premium', type: 'metered', config: { limit: 3, period: 'month' }, match: { include: ['/premium/**'], exclude: [] }, segmentId: segment.id });
    await made('/admin/experiments', { name: 'Button copy', paywallId: paywall.id, variants: [{ name: 'A', weight: 50 }, { name: 'B', weight: 50, overrides: { copy: { ctaText: 'Join now' } } }] });
    const product = await made('/admin/products', { name: 'Digital', entitlements: [] });
    await made(`/admin/products/${product.id}/prices`, { currency: 'eur', unitAmount: 900, interval: 'month', trialDays: 14 });
    await made('/customers', { email: 'reader@daily.example', name: 'Rea Reader' });
    await made('/admin/webhooks', { url: 'http://127.0.0.1:9/hooks/gatehouse', events: ['subscription.created', 'subscription.cancelled'] });
  }

  /* Webhooks */

  /** The billing service (its first replica). */
  get billing(): RunningService {
    return this.replicasOf('billing')[0];
  }

  /** The webhooks-out replicas running. */
  get webhooksOut(): RunningService[] {
    return this.replicasOf('webhooks-out');
  }

  /** One more webhooks-out replica (or a restart) on the same database and bus. */
  startWebhooksOut(env: Record<string, string> = WEBHOOKS_ENV): Promise<RunningService> {
    return this.startReplica('webhooks-out', env);
  }

  stopWebhooksOut(service: RunningService): Promise<void> {
    return this.stopReplica(service);
  }

  /** Registers a webhook through the gateway; fails the test unless it is created. */
  async register(url: string, events: string[], session = this.session): Promise<CreatedWebhookBody> {
    return (await this.answered(201, '/admin/webhooks', { session, body: { url, events } })).body;
  }

  /** The delivery log of one webhook, as the dashboard lists it. */
  async deliveriesOf(webhookId: string, session = this.session): Promise<AttemptBody[]> {
    const res = await this.admin<{ webhooks: Array<{ id: string; deliveries: AttemptBody[] }> }>('/admin/webhooks', { session });
    const webhook = res.body.webhooks.find((w) => w.id === webhookId);
    if (!webhook) throw new Error(`webhook ${webhookId} not listed`);
    return webhook.deliveries;
  }

  /** A publication of its own, with its admin's session, whose webhooks point at `receiver`: no test receives another's events. */
  async publicationFor(receiver: { url: string }) {
    const { session, publicationId } = await this.staffSession('admin');
    return {
      publicationId,
      session,
      register: (path: string, events: string[]) => this.register(`${receiver.url}${path}`, events, session),
      log: (webhookId: string) => this.deliveriesOf(webhookId, session),
      api: (path: string, options: Call = {}) => this.admin(path, { session, ...options }),
    };
  }

  /* Events */

  /** Starts collecting what is published on the event stream (billing's events unless given), from the beginning, as another service would consume it. */
  async readOutboundEvents(names: string[] = BILLING_EVENTS): Promise<void> {
    this.eventReader = await EventReader.start(this.namespace, names);
  }

  /** The events of that name collected so far (`readOutboundEvents`) whose data matches. */
  outboundFor(name: string, match: (data: any) => boolean = () => true): EventEnvelope<any>[] {
    return this.eventReader?.all(name, match) ?? [];
  }

  async close(): Promise<void> {
    await this.eventReader?.close();
    await this.producer?.close();
    await this.bus?.onApplicationShutdown();
    if (!this.gatewayStopped) await this.gateway?.close();
    for (const service of [...this.services].reverse()) await service.close();
    await this.fake?.close();
    await this.db?.drop();
    if (this.namespace) await deleteEventStream([testNatsUrl()], this.namespace);
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

export interface CreatedWebhookBody {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  createdAt: string;
}

export interface AttemptBody {
  id: string;
  event: string;
  attempt: number;
  status: 'pending' | 'succeeded' | 'failed';
  responseCode: number | null;
  responseBody: string | null;
  durationMs: number | null;
  error: string | null;
  createdAt: string;
  dueAt: string;
  attemptedAt: string | null;
}
