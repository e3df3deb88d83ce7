import { Module, type INestMicroservice, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { BackendServiceName } from '@gatehouse/contracts';
import { DatabaseModule, openServiceDatabase, startEmbeddedPostgres, type EmbeddedDatabase } from '@gatehouse/db';
import {
  Clock,
  ClockModule,
  ConfigError,
  ConfigModule,
  PinoNestLogger,
  ProblemRpcFilter,
  closeOnSignals,
  createLogger,
  createValidationPipe,
  loadConfig,
  type ServiceConfig,
} from '@gatehouse/platform';
import { createServer, type Server } from 'node:http';
import { BusModule, createRequestServer } from './bus.module';
import { InProcessHub, type BusTransport } from './bus-options';
import { CreateBusTables1763700000000 } from './events/bus-tables.migration';
import { EVENT_TRANSPORT, type EventTransport } from './events/event-transport';
import { EventsModule } from './events/events.module';
import { NamespacedNatsServer } from './requests/nats.transport';
import { checkServiceHealth, healthControllerFor } from './health.controller';

/** What a service lib exports so that it can be booted alone or beside the others. */
export interface ServiceDefinition<C extends ServiceConfig = ServiceConfig> {
  name: BackendServiceName;
  /** Its own PostgreSQL schema. */
  schema: string;
  /** The service's root feature module. */
  module: Type;
  /** Its validated configuration class; injectable by that class. */
  config: new () => C;
  entities: Type[];
  migrations: Type[];
}

export interface RunningService {
  name: BackendServiceName;
  app: INestMicroservice;
  close(): Promise<void>;
}

export interface ServiceRuntime<C extends ServiceConfig> {
  config: C;
  transport: BusTransport;
  databaseUrl: string;
  /** The system clock unless a test brings its own. */
  clock?: Clock;
}

/** Boots one service: opens and migrates its schema, then answers its requests and consumes its events. */
export async function startService<C extends ServiceConfig>(
  definition: ServiceDefinition<C>,
  runtime: ServiceRuntime<C>,
): Promise<RunningService> {
  const logger = createLogger(definition.name, runtime.config.LOG_LEVEL);
  const dataSource = await openServiceDatabase({
    url: runtime.databaseUrl,
    schema: definition.schema,
    entities: definition.entities,
    migrations: [CreateBusTables1763700000000, ...definition.migrations],
  });
  const busOptions = {
    service: definition.name,
    namespace: runtime.config.BUS_NAMESPACE,
    transport: runtime.transport,
    stream: { replicas: runtime.config.EVENT_STREAM_REPLICAS, maxBytes: runtime.config.EVENT_STREAM_MAX_BYTES },
    // What is left of the grace period after draining is for the shutdown hooks (flushes, closing connections).
    shutdownGraceMs: Math.max(runtime.config.SHUTDOWN_GRACE_MS - 3_000, runtime.config.SHUTDOWN_GRACE_MS / 2),
  };
  const strategy = createRequestServer(busOptions);
  let draining = false;

  @Module({
    imports: [
      ConfigModule.forValue(definition.config, runtime.config),
      ClockModule.forRoot(runtime.clock),
      DatabaseModule.forDataSource(dataSource),
      BusModule.forRoot(busOptions),
      EventsModule.forRoot(),
      definition.module,
    ],
    controllers: [healthControllerFor(definition.name)],
  })
  class ServiceRootModule {}

  let app: INestMicroservice;
  try {
    app = await NestFactory.createMicroservice(ServiceRootModule, {
      strategy,
      logger: new PinoNestLogger(logger),
      // A failing start-up throws to the caller (one clear line from runMain) instead of exiting here.
      abortOnError: false,
    });
    app.useGlobalFilters(new ProblemRpcFilter(logger));
    app.useGlobalPipes(createValidationPipe());
    await app.listen();
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
  const events = app.get<EventTransport>(EVENT_TRANSPORT);
  const probes = runtime.config.HEALTH_PORT
    ? await serveProbes(runtime.config.HEALTH_PORT, () =>
        checkServiceHealth(definition.name, {
          dataSource,
          requests: strategy instanceof NamespacedNatsServer ? strategy : undefined,
          events,
          draining: () => draining,
        }),
      )
    : undefined;
  logger.info({ namespace: busOptions.namespace, transport: runtime.transport.kind }, 'service started');
  return {
    name: definition.name,
    app,
    /** Readiness fails at once; requests in hand are answered, consumers and relay stop, buffers flush, connections close. */
    close: async () => {
      draining = true;
      await app.close();
      await dataSource.destroy();
      probes?.close();
    },
  };
}

/**
 * The start of a service deployed on its own: configuration from the environment, the real bus
 * (NATS_URL is required: alone on an in-process bus nobody could reach it) and PostgreSQL from
 * DATABASE_URL, or an embedded one under DATA_DIR when unset.
 */
export async function runStandaloneService<C extends ServiceConfig>(definition: ServiceDefinition<C>): Promise<RunningService> {
  const config = loadConfig(definition.config);
  if (!config.NATS_URL) {
    throw new ConfigError('Invalid configuration: NATS_URL is required to run a service on its own (npm start runs them all in one process without it)');
  }
  const embedded = config.DATABASE_URL ? undefined : await startEmbeddedPostgres(config.DATA_DIR);
  const service = await startService(definition, {
    config,
    transport: { kind: 'nats', servers: config.NATS_URL.split(',') },
    databaseUrl: config.DATABASE_URL ?? (embedded as EmbeddedDatabase).url,
  });
  closeOnSignals(async () => {
    await service.close();
    await embedded?.stop();
  }, config.SHUTDOWN_GRACE_MS);
  return service;
}

export { InProcessHub };

function serveProbes(port: number, ready: () => Promise<{ status: string }>): Promise<Server> {
  const server = createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.url === '/healthz') return answer(200, { status: 'up' });
    if (req.url === '/readyz') {
      return void ready().then(
        (health) => answer(health.status === 'up' ? 200 : 503, health),
        () => answer(503, { status: 'down' }),
      );
    }
    answer(404, { status: 404 });
  });
  return new Promise((resolve) => server.listen(port, () => resolve(server)));
}
