import { AccessConfig, accessService } from '@gatehouse/access';
import { adminService } from '@gatehouse/admin';
import { BusClient, type BusOptions, createRequestClient, deleteEventStream, JetStreamEventTransport } from '@gatehouse/bus';
import { type RunningService, startService } from '@gatehouse/runtime';
import type { AccessCheckResult, EventEnvelope, PaywallDraft, PaywallView } from '@gatehouse/contracts';
import { identityService } from '@gatehouse/identity';
import { loadConfig, ManualClock } from '@gatehouse/platform';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { call, sessionFrom, type Answer, type Call } from './http';
import { startGatewayOverNats, startServiceOverNats, type TestGateway } from './system';

export const SITE = 'https://news.example.com';
/** Readers' User-Agents: the gateway derives the device class from them. */
export const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
export const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
export const ADMIN = { email: 'access-admin@example.com', password: 'admin-password-1' };
const ENV = {
  BCRYPT_COST: '4',
  BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
  BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
  BOOTSTRAP_PUBLICATION_NAME: 'News Example',
  BOOTSTRAP_PUBLICATION_DOMAINS: 'news.example.com,*.blog.example',
};
/** A Friday, so the week around it starts on Monday 2031-03-10. */
export const ACCESS_TIME = new Date('2031-03-14T10:30:00.000Z');

export interface Reader {
  accessToken: string;
  customer: { id: string; email: string; name: string };
}

/**
 * The system an access test needs, each part its own Nest application over the machine's NATS and
 * PostgreSQL: identity (customers and their JWTs), admin (staff, keys), access on a clock the
 * test moves, and the gateway. Billing is not started: access then decides as for non-subscribers.
 */
export class AccessSystem {
  readonly clock = new ManualClock(ACCESS_TIME);
  readonly namespace = uniqueNamespace('access');
  session = '';
  publicationId = '';
  publishableKey = '';
  secretKey = '';
  private db?: TestDatabase;
  private gateway?: TestGateway;
  private readonly services: RunningService[] = [];
  private bus?: BusClient;
  private accessConfig?: AccessConfig;

  get base(): string {
    return (this.gateway as TestGateway).url;
  }

  get databaseUrl(): string {
    return (this.db as TestDatabase).url;
  }

  static async start(gatewayEnv: Record<string, string> = {}): Promise<AccessSystem> {
    const system = new AccessSystem();
    await system.boot(gatewayEnv);
    return system;
  }

  private async boot(gatewayEnv: Record<string, string>): Promise<void> {
    this.db = await createTestDatabase();
    const transport = { kind: 'nats' as const, servers: [testNatsUrl()] };
    const accessConfig = (this.accessConfig = loadConfig(AccessConfig, {
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
      NATS_URL: testNatsUrl(),
      DATABASE_URL: this.db.url,
      BUS_NAMESPACE: this.namespace,
      ENTITLEMENTS_TIMEOUT_MS: '200',
    }));
    this.services.push(
      ...(await Promise.all([
        startServiceOverNats(identityService, this.db.url, this.namespace, ENV),
        startServiceOverNats(adminService, this.db.url, this.namespace, ENV),
        startService(accessService, { config: accessConfig, transport, databaseUrl: this.db.url, clock: this.clock, migrate: true }),
      ])),
    );
    this.gateway = await startGatewayOverNats(this.namespace, gatewayEnv);
    const options: BusOptions = { service: 'gateway', namespace: this.namespace, transport };
    this.bus = new BusClient(options, createRequestClient(options));

    const login = await this.api('/admin/session', { body: ADMIN });
    this.session = sessionFrom(login);
    this.publicationId = login.body.publication.id;
    const keys = await this.api('/admin/api-keys', { session: this.session, body: { name: 'site' } });
    this.publishableKey = keys.body.publishableKey;
    this.secretKey = keys.body.secretKey;
  }

  api<T = any>(path: string, options: Call = {}): Promise<Answer<T>> {
    return call<T>(this.base, `/api/v1${path}`, options);
  }

  /** An admin call on the session, as the dashboard makes it. */
  admin<T = any>(path: string, options: Call = {}): Promise<Answer<T>> {
    return this.api<T>(path, { session: this.session, ...options });
  }

  /** `GET /access/check` with the publishable key; `query.url` may be a path on SITE. */
  check(query: Record<string, string>, options: Call = {}): Promise<Answer<AccessCheckResult>> {
    const url = query['url']?.startsWith('/') ? `${SITE}${query['url']}` : query['url'];
    const params = new URLSearchParams(Object.entries({ ...query, url }).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return this.api<AccessCheckResult>(`/access/check?${params}`, { key: this.publishableKey, ...options });
  }

  /** The body of a granted-or-denied check, failing on any other status. */
  async decision(query: Record<string, string>, options: Call = {}): Promise<AccessCheckResult> {
    const answer = await this.check(query, options);
    if (answer.status !== 200) throw new Error(`access check answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async createPaywall(draft: PaywallDraft): Promise<PaywallView> {
    const created = await this.admin<PaywallView>('/admin/paywalls', { body: draft });
    if (created.status !== 201) throw new Error(`paywall not created (${created.status}): ${JSON.stringify(created.body)}`);
    return created.body;
  }

  async track(body: unknown, options: Call = {}): Promise<Answer> {
    return this.api('/events', { key: this.publishableKey, body, ...options });
  }

  async register(): Promise<Reader> {
    const answer = await this.api<Reader>('/auth/customers/register', {
      key: this.publishableKey,
      body: { email: `reader-${randomUUID()}@example.com`, password: 'reader-password', name: 'Reader' },
    });
    if (answer.status !== 201) throw new Error(`register answered ${answer.status}`);
    return answer.body;
  }

  /** One more access service on the same database and bus: another replica, answering from its own memory. */
  async startAccessReplica(): Promise<RunningService> {
    const replica = await startService(accessService, {
      config: this.accessConfig as AccessConfig,
      transport: { kind: 'nats', servers: [testNatsUrl()] },
      databaseUrl: this.databaseUrl,
      clock: this.clock,
      migrate: true,
    });
    this.services.push(replica);
    return replica;
  }

  /** Stops an access replica gracefully (as SIGTERM does), so it is no longer closed with the system. */
  async stopAccessReplica(replica: RunningService): Promise<void> {
    this.services.splice(this.services.indexOf(replica), 1);
    await replica.close();
  }

  /** The access replicas running. */
  get accessReplicas(): RunningService[] {
    return this.services.filter((service) => service.name === 'access');
  }

  /** A bus client on the system's namespace, as admin's stats view would call access. */
  get busClient(): BusClient {
    return this.bus as BusClient;
  }

  async close(): Promise<void> {
    await this.bus?.onApplicationShutdown();
    await this.gateway?.close();
    for (const service of this.services) await service.close();
    await this.db?.drop();
    await deleteEventStream([testNatsUrl()], this.namespace);
  }
}

/** Reads the events the system publishes, as a publisher's webhook consumer would receive them. */
export class EventReader {
  private readonly received: EventEnvelope[] = [];

  private constructor(private readonly transport: JetStreamEventTransport) {}

  static async start(namespace: string, names: string[]): Promise<EventReader> {
    const transport = await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace);
    const reader = new EventReader(transport);
    await transport.consume('test-reader', names, async (envelope) => {
      reader.received.push(envelope);
    });
    return reader;
  }

  /** The first event of that name whose data satisfies `matches`. */
  waitFor<T = Record<string, unknown>>(name: string, matches: (data: T) => boolean): Promise<EventEnvelope<T>> {
    return eventually(() => this.received.find((e) => e.name === name && matches(e.data as T)) as EventEnvelope<T> | undefined);
  }

  all(name: string): EventEnvelope[] {
    return this.received.filter((e) => e.name === name);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

