import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { gatewayEdge, GatewayConfig } from '@gatehouse/gateway';
import { loadConfig, type ServiceConfig, type ServiceDefinition } from '@gatehouse/platform';
import { createHttpProcess, startService, type RunningService } from '@gatehouse/runtime';
import { testNatsUrl } from '@gatehouse/testing';

export interface TestGateway {
  app: NestFastifyApplication;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

const quiet = { LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent' };

/** Boots a service as its own Nest application on the real NATS and PostgreSQL, as a deployment would. */
export function startServiceOverNats<C extends ServiceConfig>(
  definition: ServiceDefinition<C>,
  databaseUrl: string,
  namespace: string,
  env: Record<string, string> = {},
): Promise<RunningService> {
  const config = loadConfig(definition.config, { ...quiet, NATS_URL: testNatsUrl(), DATABASE_URL: databaseUrl, BUS_NAMESPACE: namespace, ...env });
  return startService(definition, { config, transport: { kind: 'nats', servers: config.NATS_URL!.split(',') }, databaseUrl, migrate: true });
}

/** Boots the gateway on a free local port, talking to the services over the real NATS. */
export async function startGatewayOverNats(
  namespace: string,
  env: Record<string, string> = {},
  extraModules: Array<Type | DynamicModule> = [],
): Promise<TestGateway> {
  const config = loadConfig(GatewayConfig, { ...quiet, NATS_URL: testNatsUrl(), BUS_NAMESPACE: namespace, PORT: '0', ...env });
  const edge = await createHttpProcess('gateway', { config, transport: { kind: 'nats', servers: config.NATS_URL!.split(',') }, edge: gatewayEdge, extraModules });
  const url = await edge.listen(0, '127.0.0.1');
  return { app: edge.app, url, close: () => edge.close() };
}

export { querySchema } from '@gatehouse/testing';
