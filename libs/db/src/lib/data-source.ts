import { accessSync, constants } from 'node:fs';
import { Logger } from '@nestjs/common';
import { DataSource, type DataSourceOptions } from 'typeorm';

export interface ServiceDatabaseOptions {
  url: string;
  /**
   * A PEM bundle of the CA(s) the server's certificate must chain to (a private CA): TLS with the
   * server's name checked, as `sslmode=verify-full` (DATABASE_CA_FILE).
   */
  caFile?: string;
  /** The service's own PostgreSQL schema; it reads and writes nothing else. */
  schema: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: NonNullable<DataSourceOptions['migrations']>;
  poolSize?: number;
}

/** Connections a service's pool opens at most, unless the service says otherwise. */
export const DEFAULT_POOL_SIZE = 10;

/** Past this, getting a connection (a new one, or a free one from a full pool) fails instead of hanging on an unreachable server. */
const CONNECT_TIMEOUT_MS = 10_000;
const logger = new Logger('Database');

/**
 * A data source bound to one service schema: unqualified SQL resolves in that schema (search_path),
 * `synchronize` is off, and migrations are run by `migrateServiceSchema`, not at connection. A
 * connection the server drops (a restart, a failover) is logged and replaced, never fatal.
 */
export function createServiceDataSource(options: ServiceDatabaseOptions): DataSource {
  assertSchemaName(options.schema);
  return new DataSource({
    type: 'postgres',
    url: withCaFile(options.url, options.caFile),
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    // Extensions are the migrations' business (and need more than a service role may do).
    installExtensions: false,
    logging: ['error'],
    poolErrorHandler: (err: unknown) => logger.warn(`A pooled connection of ${options.schema} failed and is replaced: ${describe(err)}`),
    extra: {
      options: `-c search_path=${options.schema}`,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    },
  });
}

/** The schema is missing, or lacks migrations this release needs: the migration step has not run yet. */
export class SchemaNotMigratedError extends Error {
  constructor(
    readonly schema: string,
    readonly missing: string[],
  ) {
    super(`Schema "${schema}" is not at this release's version: ${missing.length} migration(s) not applied (${missing[missing.length - 1]}). Run the migration step first (docs/operations.md).`);
    this.name = 'SchemaNotMigratedError';
  }
}

/**
 * Opens the service's database with the service's own role and checks that its schema carries
 * every migration this release knows (newer ones, from a release rolling out, are fine: migrations
 * are additive). Changes nothing: creating and altering the schema is the migration step's.
 */
export async function openServiceDatabase(options: ServiceDatabaseOptions): Promise<DataSource> {
  const dataSource = createServiceDataSource(options);
  await dataSource.initialize();
  try {
    const missing = await missingMigrations(dataSource, options.schema);
    if (missing.length > 0) throw new SchemaNotMigratedError(options.schema, missing);
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
  return dataSource;
}

/**
 * The migration step, run with the schema's owner role: creates the schema when it does not exist
 * and runs the pending migrations, each in its own transaction. An advisory lock keeps two
 * replicas (init containers starting together) from migrating the same schema at once. Answers
 * the names of the migrations it ran.
 */
export async function migrateServiceSchema(options: ServiceDatabaseOptions): Promise<string[]> {
  const dataSource = createServiceDataSource(options);
  await dataSource.initialize();
  try {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${options.schema}`]);
      // Only when missing: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even when the schema exists.
      const [{ present }] = (await runner.query('SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS present', [options.schema])) as Array<{ present: boolean }>;
      if (!present) await runner.query(`CREATE SCHEMA "${options.schema}"`);
      return (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${options.schema}`]).catch(() => undefined);
      await runner.release();
    }
  } finally {
    await dataSource.destroy();
  }
}

async function missingMigrations(dataSource: DataSource, schema: string): Promise<string[]> {
  const known = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  const [{ present }] = (await dataSource.query('SELECT to_regclass($1) IS NOT NULL AS present', [`"${schema}".migrations`])) as Array<{ present: boolean }>;
  if (!present) return known;
  const applied = new Set(((await dataSource.query('SELECT name FROM migrations')) as Array<{ name: string }>).map((row) => row.name));
  return known.filter((name) => !applied.has(name));
}

/**
 * pg reads `sslrootcert` from the URL (on every new connection, so a renewed bundle is picked up)
 * and, unless `sslmode` says otherwise, verifies the server against it with its name checked.
 */
function withCaFile(url: string, caFile: string | undefined): string {
  if (!caFile) return url;
  try {
    accessSync(caFile, constants.R_OK);
  } catch (err) {
    throw new Error(`The database CA bundle ${caFile} cannot be read: ${describe(err)}`);
  }
  return `${url}${url.includes('?') ? '&' : '?'}sslrootcert=${encodeURIComponent(caFile)}`;
}

function assertSchemaName(schema: string): void {
  if (!/^[a-z][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The migration step and the opening with one role: `npm start`, tests, and one-role setups. */
export async function openMigratedDatabase(options: ServiceDatabaseOptions): Promise<DataSource> {
  await migrateServiceSchema(options);
  return openServiceDatabase(options);
}
