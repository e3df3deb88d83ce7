import { accessService } from '@gatehouse/access';
import { adminService } from '@gatehouse/admin';
import { billingService } from '@gatehouse/billing';
import { brandingService } from '@gatehouse/branding';
import { BusClient, type BusOptions, createRequestClient, deleteEventStream } from '@gatehouse/bus';
import type { RequestPattern } from '@gatehouse/contracts';
import { identityService } from '@gatehouse/identity';
import { loadConfig, type Clock, type ServiceDefinition } from '@gatehouse/platform';
import { startService, type RunningService } from '@gatehouse/runtime';
import { createTestDatabase, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { webhooksOutService } from '@gatehouse/webhooks-out';
import { randomBytes, randomUUID } from 'node:crypto';
import { FakeProcessorProcess, PUBLIC_BASE_URL, SECRET_KEY, WEBHOOK_SECRET } from './fake-processor';
import { call, type Answer, type Call } from './http';
import { ADMIN, adminSession, bootstrapEnv, staffSession, type Publication } from './staff';
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
}

/**
 * The one system fixture of the e2e tests: a fresh database and bus namespace, the services a test
 * names, each its own Nest application in this process over the machine's NATS and PostgreSQL (as
 * a deployment runs them, one process each), the fake processor as a separate process when billing
 * needs one, and the gateway in front; ADMIN signed in with a key pair unless told otherwise.
 * `npm start` itself, everything in one child process, is `LocalStart` (./local-start).
 * The domain classes (AccessSystem, BillingSystem, …) only add their vocabulary to it.
 */
export class TestSystem {
  namespace = '';
  /** The bootstrap admin's session and its publication. */
  session = '';
  publicationId = '';
  publishableKey = '';
  secretKey = '';
  db!: TestDatabase;
  gateway!: TestGateway;
  fake!: FakeProcessorProcess;
  protected options!: TestSystemOptions;
  protected readonly services: RunningService[] = [];
  private bus?: BusClient;
  private gatewayStopped = false;
  /** Billing's key for the processor settings it stores, the same for every start of it. */
  private readonly processorSettingsKey = randomBytes(32).toString('base64');

  /** Starts a system of `this` class: `AccessSystem.boot(...)` gives an AccessSystem. */
  protected static async boot<S extends TestSystem>(this: new () => S, options: TestSystemOptions): Promise<S> {
    const system = new this();
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
    if (options.login === false) return;
    ({ session: this.session, publicationId: this.publicationId } = await adminSession(this.gateway.url));
    if (options.keys) ({ publishableKey: this.publishableKey, secretKey: this.secretKey } = (await this.answered(201, '/admin/api-keys', { session: this.session, body: { name: options.keys } })).body);
    if (options.connectProcessor) await this.answered(200, '/admin/processor', { method: 'PUT', session: this.session, body: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } });
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
    const { session } = await adminSession(this.gateway.url, ADMIN);
    await this.answered(200, '/admin/session/publication', { method: 'PUT', session, body: { publicationId: created.body.id } });
    return { session, publicationId: created.body.id };
  }

  async close(): Promise<void> {
    await this.bus?.onApplicationShutdown();
    if (!this.gatewayStopped) await this.gateway?.close();
    for (const service of [...this.services].reverse()) await service.close();
    await this.fake?.close();
    await this.db?.drop();
    if (this.namespace) await deleteEventStream([testNatsUrl()], this.namespace);
  }

  /** A call that must answer `status`, failing with what it answered otherwise. */
  protected async answered(status: number, path: string, options: Call): Promise<Answer> {
    const answer = await this.api(path, options);
    if (answer.status !== status) {
      throw new Error(`${options.method ?? (options.body === undefined ? 'GET' : 'POST')} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return answer;
  }
}
