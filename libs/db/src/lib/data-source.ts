import { DataSource, type DataSourceOptions } from 'typeorm';

export interface ServiceDatabaseOptions {
  url: string;
  /** The service's own PostgreSQL schema; it reads and writes nothing else. */
  schema: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: NonNullable<DataSourceOptions['migrations']>;
  poolSize?: number;
}

/**
 * A data source bound to one service schema: unqualified SQL resolves in that schema (search_path),
 * `synchronize` is off, and migrations are run explicitly by `openServiceDatabase`.
 */
export function createServiceDataSource(options: ServiceDatabaseOptions): DataSource {
  assertSchemaName(options.schema);
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    extra: { options: `-c search_path=${options.schema}`, max: options.poolSize ?? 10 },
  });
}

/**
 * Connects, creates the schema and runs the pending migrations. An advisory lock keeps two
 * replicas starting at once from migrating the same schema concurrently.
 */
export async function openServiceDatabase(options: ServiceDatabaseOptions): Promise<DataSource> {
  const dataSource = createServiceDataSource(options);
  await dataSource.initialize();
  try {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${options.schema}`]);
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${options.schema}`]).catch(() => undefined);
      await runner.release();
    }
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
  return dataSource;
}

function assertSchemaName(schema: string): void {
  if (!/^[a-z][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
}
