import { BusClient, type BusOptions, createRequestClient, deleteEventStream } from '@gatehouse/bus';
import { type RunningService, startService } from '@gatehouse/runtime';
import type { RequestPattern, StaffRole } from '@gatehouse/contracts';
import { loadConfig, ManualClock } from '@gatehouse/platform';
import { createTestDatabase, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { AdminConfig } from '../admin.config';
import { adminService } from '../admin.module';
import { PublicationsService } from '../publications/publications.service';
import { StaffService } from '../staff/staff.service';

export const BOOTSTRAP = {
  email: 'Editor@Example.com',
  password: 'correct horse battery',
  publicationName: 'Daily Bugle',
  domains: ' Bugle.example ,*.bugle.example,bugle.example',
};

export const BOOTSTRAP_ENV: Record<string, string> = {
  BOOTSTRAP_ADMIN_EMAIL: BOOTSTRAP.email,
  BOOTSTRAP_ADMIN_PASSWORD: BOOTSTRAP.password,
  BOOTSTRAP_PUBLICATION_NAME: BOOTSTRAP.publicationName,
  BOOTSTRAP_PUBLICATION_DOMAINS: BOOTSTRAP.domains,
};

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/**
 * The admin service as deployed: its own Nest application on the machine's NATS and a fresh
 * PostgreSQL database, with a clock the test moves, and a bus client to call it.
 */
export class AdminHarness {
  readonly clock = new ManualClock(new Date('2031-03-01T09:00:00.000Z'));
  readonly namespace = uniqueNamespace('admin');
  private readonly services: RunningService[] = [];
  private busClient?: BusClient;
  private database?: TestDatabase;
  private sql?: Client;

  /** Several replicas start at once, as a scaled deployment's would. */
  async start(env: Record<string, string> = BOOTSTRAP_ENV, replicas = 1): Promise<this> {
    this.database = await createTestDatabase();
    await Promise.all(Array.from({ length: replicas }, () => this.startReplica(env)));
    const options: BusOptions = { service: 'admin', namespace: this.namespace, transport: { kind: 'nats', servers: [testNatsUrl()] } };
    this.busClient = new BusClient(options, createRequestClient(options));
    this.sql = new Client({ connectionString: this.database.url, options: '-c search_path=admin' });
    await this.sql.connect();
    return this;
  }

  /** One more admin process on the same database and bus, as a second replica would be. */
  async startReplica(env: Record<string, string> = BOOTSTRAP_ENV): Promise<RunningService> {
    const config = loadConfig(AdminConfig, { BCRYPT_COST: '4', LOG_LEVEL: 'silent', BUS_NAMESPACE: this.namespace, ...env });
    const service = await startService(adminService, {
      config,
      transport: { kind: 'nats', servers: [testNatsUrl()] },
      databaseUrl: this.databaseUrl,
      clock: this.clock,
      migrate: true,
    });
    this.services.push(service);
    return service;
  }

  get databaseUrl(): string {
    if (!this.database) throw new Error('start() first');
    return this.database.url;
  }

  request<Req, Res>(pattern: RequestPattern<Req, Res>, payload: NoInfer<Req>): Promise<Res> {
    return (this.busClient as BusClient).request(pattern, payload);
  }

  /** Reads the admin schema directly, to see what is stored. */
  async query<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await (this.sql as Client).query<T>(text, params)).rows;
  }

  /** A staff member with a role in a publication. There is no request for this yet, so the service's own code does it. */
  async addStaff(email: string, password: string, publicationId: string, role: StaffRole): Promise<string> {
    const app = this.services[0].app;
    const staff = await app.get(StaffService).register({ email, name: email.split('@')[0], password });
    await app.get(PublicationsService).grant(staff.id, publicationId, role);
    return staff.id;
  }

  async close(): Promise<void> {
    await this.busClient?.onApplicationShutdown();
    await this.sql?.end();
    await Promise.all(this.services.map((service) => service.close()));
    await this.database?.drop();
    await deleteEventStream([testNatsUrl()], this.namespace);
  }
}

