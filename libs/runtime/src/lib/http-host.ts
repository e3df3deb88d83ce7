import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { BusModule, eventStreamLimits, type BusOptions, type BusTransport } from '@gatehouse/bus';
import { BusConfig, closeOnSignals, collectProcessMetrics, createLogger, httpMetrics, PinoNestLogger, type HttpEdge } from '@gatehouse/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { OperationsModule, ProcessState } from './operations.module';

/** What the runtime reads of an HTTP process's configuration. */
export type HttpProcessConfig = BusConfig & { SHUTDOWN_DELAY_MS: number };

export interface HttpProcessOptions<C extends HttpProcessConfig> {
  config: C;
  transport: BusTransport;
  edge: (config: C, logger: Logger) => HttpEdge;
  /** Further modules mounted behind the same edge (tests' own routes). */
  extraModules?: Array<Type | DynamicModule>;
}

export interface HttpProcess {
  app: NestFastifyApplication;
  /** Starts accepting on `port` (0: a free one), and the operations port when HEALTH_PORT is set; answers the base URL. */
  listen(port: number, host: string): Promise<string>;
  /** Readiness fails at once; after SHUTDOWN_DELAY_MS it stops accepting and closes once requests in flight are answered. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Boots an HTTP process (the gateway) on the bus: its edge module behind Fastify, probes at
 * /healthz and /readyz, Prometheus metrics at /metrics on HEALTH_PORT only (never on the public
 * port), and a latency histogram of every answer by route class and status.
 */
export async function createHttpProcess<C extends HttpProcessConfig>(name: 'gateway', options: HttpProcessOptions<C>): Promise<HttpProcess> {
  const { config } = options;
  const logger = createLogger(name, config.LOG_LEVEL);
  collectProcessMetrics();
  const edge = options.edge(config, logger);
  const busOptions: BusOptions = {
    service: name,
    namespace: config.BUS_NAMESPACE,
    transport: options.transport,
    stream: eventStreamLimits(config),
  };
  const state = new ProcessState();

  @Module({
    imports: [BusModule.forRoot(busOptions), OperationsModule.forProcess({ state, metricsPort: config.HEALTH_PORT }), edge.module, ...(options.extraModules ?? [])],
  })
  class HttpRootModule {}

  const app = await NestFactory.create<NestFastifyApplication>(HttpRootModule, new FastifyAdapter(edge.fastify), {
    logger: new PinoNestLogger(logger),
    // Fastify's own JSON parser only: NestJS would add a form parser, and bodies that are not JSON answer 415.
    bodyParser: false,
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  fastify.addHook('onResponse', (request, reply, done) => {
    httpMetrics.requests.observe({ route_class: routeClassOf(request), method: request.method, status: reply.statusCode }, reply.elapsedTime / 1000);
    done();
  });
  await edge.configure(app);
  let operations: Server | undefined;
  const close = async () => {
    operations?.close();
    await app.close();
  };
  return {
    app,
    async listen(port, host) {
      await app.listen({ port, host });
      // The operations port reaches the same routes; /metrics answers only there.
      if (config.HEALTH_PORT) operations = await listenOn(config.HEALTH_PORT, (req, res) => fastify.routing(req, res));
      const address = app.getHttpServer().address() as AddressInfo;
      return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
    },
    async drain() {
      state.draining = true;
      await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
      // Closing waits for every connection: keep-alive ones are closed as soon as their request is answered.
      const server = app.getHttpServer() as Server;
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      await close().finally(() => clearInterval(sweep));
    },
    close,
  };
}

/** The gateway deployed on its own: listens on PORT on every interface, drains on SIGTERM. */
export async function runStandaloneHttp<C extends HttpProcessConfig & { PORT: number }>(name: 'gateway', options: HttpProcessOptions<C>): Promise<HttpProcess> {
  const process = await createHttpProcess(name, options);
  await process.listen(options.config.PORT, '0.0.0.0');
  closeOnSignals(() => process.drain(), options.config.SHUTDOWN_DELAY_MS + options.config.SHUTDOWN_GRACE_MS);
  return process;
}

/** The class of route an answer belongs to, for metrics: the first path segment of the matched route under /api/v1, or what else it served. */
export function routeClassOf(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (!route) return 'unmatched';
  const api = /^\/api\/v1\/([^/:]+)(?:\/([^/:]+))?/.exec(route);
  if (api) return api[1] === 'access' && api[2] === 'check' ? 'access-check' : api[1];
  const [, first = 'root'] = /^\/([^/:*]+)/.exec(route) ?? [];
  return ['healthz', 'readyz', 'metrics'].includes(first) ? 'operations' : first;
}

function listenOn(port: number, handler: Parameters<typeof createServer>[1]): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve(server));
  });
}
