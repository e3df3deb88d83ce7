import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { BusModule, CreateBusTables1763700000000, createRequestServer, eventStreamLimits, EventsModule, NatsRequestServer, natsTransportFromConfig, type BusOptions, type BusTransport } from '@gatehouse/bus';
import { DatabaseModule, migrateServiceSchema, openMigratedDatabase, openServiceDatabase, SchemaNotMigratedError, startEmbeddedPostgres, type EmbeddedDatabase, type ServiceDatabaseOptions } from '@gatehouse/db';
import {
  busMetrics,
  Clock,
  ClockModule,
  closeOnSignals,
  collectProcessMetrics,
  ConfigError,
  ConfigModule,
  createLogger,
  isDatabaseUnavailable,
  createValidationPipe,
  loadConfig,
  PinoNestLogger,
  ProblemFilter,
  sampledGauge,
  ServiceConfig,
  type ServiceDefinition,
} from '@gatehouse/platform';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { OperationsModule, ProcessState } from './operations.module';
import { serveStartupProbes } from './startup-probes';
import { waitFor } from './wait-for';

export interface RunningService {
  name: ServiceDefinition['name'];
  app: NestFastifyApplication;
  close(): Promise<void>;
}

export interface ServiceRuntime<C extends ServiceConfig> {
  config: C;
  transport: BusTransport;
  databaseUrl: string;
  /** The system clock unless a test brings its own. */
  clock?: Clock;
  /**
   * Run the schema's migrations first, with the same role: for one-role setups (`npm start`,
   * tests). A deployment runs them as a separate step with the owner role (`main migrate`).
   */
  migrate?: boolean;
}

/** How often a replica checks that its bus path works, to leave its queue group while it does not. */
const MEMBERSHIP_CHECK_MS = 2_000;
/** Consecutive failed checks before leaving: one slow round trip on a busy machine is not an outage. */
const FAILURES_BEFORE_LEAVING = 2;

/** What a service's schema holds besides its own tables: the outbox and the handled-event ids. */
export function databaseOf(definition: ServiceDefinition, url: string, caFile?: string): ServiceDatabaseOptions {
  return { url, caFile, schema: definition.schema, entities: definition.entities, migrations: [CreateBusTables1763700000000, ...definition.migrations] };
}

/**
 * Boots one service: waits for its database (and its schema at this release's version), then
 * answers its requests over the bus, consumes its events, and serves probes and metrics on
 * HEALTH_PORT when set (from the first moment: not ready while it waits). Readiness leaves and rejoins the queue group as the bus path fails and
 * returns.
 */
export async function startService<C extends ServiceConfig>(definition: ServiceDefinition<C>, runtime: ServiceRuntime<C>): Promise<RunningService> {
  const { config } = runtime;
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  collectProcessMetrics();
  const database = databaseOf(definition, runtime.databaseUrl, config.DATABASE_CA_FILE);
  // Until the service's own routes listen: alive and not ready, however long the database or NATS take.
  const startup = config.HEALTH_PORT ? await serveStartupProbes(config.HEALTH_PORT) : undefined;
  if (startup) startup.checks['database'] = 'down';
  let dataSource: DataSource;
  try {
    dataSource = await waitFor(
      `database of ${definition.name}`,
      () => (runtime.migrate ? openMigratedDatabase(database) : openServiceDatabase(database)),
      logger,
      { retryable: (err) => err instanceof SchemaNotMigratedError || isDatabaseUnavailable(err) },
    );
  } catch (err) {
    await startup?.close();
    throw err;
  }
  if (startup) Object.assign(startup.checks, { database: 'up', bus: 'down' });
  const busOptions: BusOptions = {
    service: definition.name,
    namespace: config.BUS_NAMESPACE,
    transport: runtime.transport,
    stream: eventStreamLimits(config),
    // What is left of the grace period after draining is for the shutdown hooks (flushes, closing connections).
    shutdownGraceMs: Math.max(config.SHUTDOWN_GRACE_MS - 3_000, config.SHUTDOWN_GRACE_MS / 2),
  };
  const server = createRequestServer(busOptions);
  const state = new ProcessState();

  @Module({
    imports: [
      ConfigModule.forValue(definition.config, config),
      ClockModule.forRoot(runtime.clock),
      DatabaseModule.forDataSource(dataSource),
      BusModule.forRoot(busOptions),
      EventsModule.forRoot(),
      OperationsModule.forProcess({ state, metricsPort: config.HEALTH_PORT, requestServer: server, service: definition.name }),
      definition.module,
    ],
    // As providers, so the request handlers (bound when the request server connects) get them too.
    providers: [
      { provide: APP_FILTER, useValue: new ProblemFilter(logger) },
      { provide: APP_PIPE, useValue: createValidationPipe() },
    ],
  })
  class ServiceRootModule {}

  let app: NestFastifyApplication;
  try {
    app = await NestFactory.create<NestFastifyApplication>(ServiceRootModule, new FastifyAdapter(), {
      logger: new PinoNestLogger(logger),
      // A failing start-up throws to the caller (one clear line from runMain) instead of exiting here.
      abortOnError: false,
    });
    app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
    await app.init();
    await app.startAllMicroservices();
    await startup?.close();
    if (config.HEALTH_PORT) await app.listen({ port: config.HEALTH_PORT, host: '0.0.0.0' });
  } catch (err) {
    await startup?.close();
    await dataSource.destroy();
    throw err;
  }
  const stopSampling = sampleDatabase(definition.name, dataSource);
  const stopWatching = server instanceof NatsRequestServer ? watchMembership(definition.name, server, state, logger) : () => undefined;
  logger.info({ namespace: busOptions.namespace, transport: runtime.transport.kind }, 'service started');
  return {
    name: definition.name,
    app,
    /** Readiness fails at once; requests in hand are answered, consumers and relay stop, buffers flush, connections close. */
    close: async () => {
      state.draining = true;
      stopWatching();
      stopSampling();
      await server.close();
      await app.close();
      await dataSource.destroy();
    },
  };
}

/** Keeps the replica in its queue group only while a message makes the round trip to it. */
function watchMembership(service: string, server: NatsRequestServer, state: ProcessState, logger: Logger): () => void {
  let failures = 0;
  busMetrics.queueGroupMember.set({ service }, 1);
  const timer = setInterval(() => {
    void server.probe().then(async (ok) => {
      failures = ok ? 0 : failures + 1;
      const member = !state.draining && failures < FAILURES_BEFORE_LEAVING;
      if (member === server.member) return;
      logger.warn(member ? 'bus path works again: rejoining the queue group' : 'bus path failing: leaving the queue group until it works');
      await server.accept(member);
      busMetrics.queueGroupMember.set({ service }, member ? 1 : 0);
    });
  }, MEMBERSHIP_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

const poolConnections = sampledGauge('gatehouse_db_pool_connections', 'Connections of the database pool, by service and state (total, idle, waiting: requests waiting for one).', [
  'service',
  'state',
] as const);
const outboxPending = sampledGauge('gatehouse_outbox_pending_events', 'Events written to the outbox and not yet published to the bus.', ['service'] as const);
const outboxLag = sampledGauge('gatehouse_outbox_lag_seconds', 'Age of the oldest event not yet published to the bus (0 when none waits).', ['service'] as const);

/** Pool use and outbox backlog, read when Prometheus scrapes. */
function sampleDatabase(service: string, dataSource: DataSource): () => void {
  const pool = () => (dataSource.driver as PostgresDriver).master as { totalCount: number; idleCount: number; waitingCount: number } | undefined;
  let backlog: Promise<{ pending: number; lag: number }> | undefined;
  const readBacklog = () =>
    (backlog ??= dataSource
      .query(`SELECT count(*)::int AS pending, COALESCE(EXTRACT(EPOCH FROM now() - min(occurred_at)), 0)::float AS lag FROM outbox WHERE published_at IS NULL`)
      .then(([row]: Array<{ pending: number; lag: number }>) => row)
      .finally(() => setImmediate(() => (backlog = undefined))));
  const stops = [
    poolConnections.track({ service, state: 'total' }, () => pool()?.totalCount),
    poolConnections.track({ service, state: 'idle' }, () => pool()?.idleCount),
    poolConnections.track({ service, state: 'waiting' }, () => pool()?.waitingCount),
    outboxPending.track({ service }, async () => (await readBacklog()).pending),
    outboxLag.track({ service }, async () => Math.max(0, (await readBacklog()).lag)),
  ];
  return () => stops.forEach((stop) => stop());
}

/**
 * The start of a service deployed on its own: configuration from the environment, the real bus
 * (NATS_URL is required: alone on an in-process bus nobody could reach it) and PostgreSQL from
 * DATABASE_URL, or an embedded one under DATA_DIR when unset. `main migrate` runs the schema's
 * migrations instead (the deployment's migration step, with the owner role) and exits.
 */
export async function runStandaloneService<C extends ServiceConfig>(definition: ServiceDefinition<C>, argv = process.argv.slice(2)): Promise<RunningService | undefined> {
  if (argv[0] === 'migrate') {
    await migrateStandalone([definition]);
    return undefined;
  }
  const config = loadConfig(definition.config);
  const embedded = config.DATABASE_URL ? undefined : await startEmbeddedPostgres(config.DATA_DIR, 1);
  const databaseUrl = config.DATABASE_URL ?? (embedded as EmbeddedDatabase).url;
  if (!config.NATS_URL) {
    throw new ConfigError('Invalid configuration: NATS_URL is required to run a service on its own (npm start runs them all in one process without it)');
  }
  const service = await startService(definition, {
    config,
    transport: natsTransportFromConfig({ ...config, NATS_URL: config.NATS_URL }),
    databaseUrl,
    // The embedded database has one role: nothing to separate.
    migrate: embedded !== undefined,
  });
  closeOnSignals(async () => {
    await service.close();
    await embedded?.stop();
  }, config.SHUTDOWN_GRACE_MS);
  return service;
}

/**
 * The migration step on its own: each schema of `definitions` brought to this release's version
 * with DATABASE_URL's role (the schemas' owner), waiting for the database as a service would.
 */
export async function migrateStandalone(definitions: ServiceDefinition<any>[]): Promise<void> {
  const config = loadConfig(ServiceConfig);
  if (!config.DATABASE_URL) throw new ConfigError('Invalid configuration: DATABASE_URL is required to run migrations (with the role that owns the schemas)');
  const logger = createLogger('migrate', config.LOG_LEVEL);
  for (const definition of definitions) {
    const applied = await waitFor(`migrating ${definition.schema}`, () => migrateServiceSchema(databaseOf(definition, config.DATABASE_URL as string, config.DATABASE_CA_FILE)), logger, {
      retryable: isDatabaseUnavailable,
    });
    logger.info(`${definition.schema}: ${applied.length ? `applied ${applied.join(', ')}` : 'already at this release\'s version'}`);
  }
}

