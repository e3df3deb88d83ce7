/**
 * Where the tests find PostgreSQL, NATS with JetStream and Redis. A URL that is set is used (this
 * machine, CI). For one that is not: when a container engine answers, the global test setup
 * starts that server with testcontainers and stops it afterwards; otherwise the local default of
 * infrastructure.ts applies. So a contributor with Docker runs `npm test` with nothing else.
 */
export type Dependency = 'postgres' | 'nats' | 'redis';

export const URL_VARIABLES: Record<Dependency, 'DATABASE_URL' | 'NATS_URL' | 'REDIS_URL'> = {
  postgres: 'DATABASE_URL',
  nats: 'NATS_URL',
  redis: 'REDIS_URL',
};

export interface InfrastructureChoice {
  /** Servers to start in containers. */
  start: Dependency[];
  /** Dependencies whose URL is set and used as it is. */
  given: Dependency[];
  /** Dependencies left to the local defaults (no URL, no engine). */
  local: Dependency[];
}

/** Whether the engine is asked at all: only when some URL is missing. */
export function needsEngine(env: NodeJS.ProcessEnv): boolean {
  return Object.values(URL_VARIABLES).some((variable) => !env[variable]);
}

export function chooseInfrastructure(env: NodeJS.ProcessEnv, engineAnswers: boolean): InfrastructureChoice {
  const all = Object.keys(URL_VARIABLES) as Dependency[];
  const missing = all.filter((dependency) => !env[URL_VARIABLES[dependency]]);
  return {
    start: engineAnswers ? missing : [],
    given: all.filter((dependency) => !missing.includes(dependency)),
    local: engineAnswers ? [] : missing,
  };
}

interface Started {
  url: string;
  stop(): Promise<unknown>;
}

/** Starts one dependency in a container; the URL points at its mapped port. */
async function startContainer(dependency: Dependency): Promise<Started> {
  const { GenericContainer, Wait } = await import('testcontainers');
  switch (dependency) {
    case 'postgres': {
      const container = await new GenericContainer('postgres:17-alpine')
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust', POSTGRES_DB: 'test' })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .start();
      return { url: `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/test`, stop: () => container.stop() };
    }
    case 'nats': {
      const container = await new GenericContainer('nats:2.10-alpine').withCommand(['-js']).withExposedPorts(4222).withWaitStrategy(Wait.forLogMessage(/Server is ready/)).start();
      return { url: `nats://${container.getHost()}:${container.getMappedPort(4222)}`, stop: () => container.stop() };
    }
    case 'redis': {
      const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/)).start();
      return { url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`, stop: () => container.stop() };
    }
  }
}

async function engineAnswers(): Promise<boolean> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  return getContainerRuntimeClient().then(
    () => true,
    () => false,
  );
}

/** Jest's global setup: sets the missing URLs (inherited by the test workers) and returns the teardown. */
export async function provideTestInfrastructure(env: NodeJS.ProcessEnv = process.env): Promise<() => Promise<void>> {
  const choice = chooseInfrastructure(env, needsEngine(env) && (await engineAnswers()));
  const started = await Promise.all(choice.start.map(async (dependency) => [dependency, await startContainer(dependency)] as const));
  for (const [dependency, container] of started) env[URL_VARIABLES[dependency]] = container.url;
  if (started.length) console.log(`\nTest infrastructure in containers: ${started.map(([d, c]) => `${d} ${c.url}`).join(', ')}`);
  return async () => {
    await Promise.all(started.map(([, container]) => container.stop()));
  };
}
