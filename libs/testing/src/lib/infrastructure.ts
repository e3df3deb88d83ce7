import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * Integration tests use the real PostgreSQL and NATS named by DATABASE_URL and NATS_URL
 * (`.ci/run` makes sure they answer). The defaults are the local services of a developer machine.
 */
export const testDatabaseUrl = (): string => process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
export const testNatsUrl = (): string => process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
export const testRedisUrl = (): string => process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file, so files never see each other's rows and can run in
 * parallel. Refuses to run unless the base database's name contains "test".
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = new URL(testDatabaseUrl());
  const baseName = base.pathname.replace(/^\//, '');
  if (!baseName.includes('test')) {
    throw new Error(`Refusing to run tests against database "${baseName}": its name must contain "test".`);
  }
  const name = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(base, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(base, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(base: URL, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: base.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** One query in a service's schema, to see (or set up) what it stores. */
export async function querySchema<T = any>(databaseUrl: string, schema: string, text: string, params: unknown[] = []): Promise<T[]> {
  const sql = new Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await sql.connect();
  try {
    return (await sql.query(text, params)).rows as T[];
  } finally {
    await sql.end();
  }
}

/** A bus namespace of its own, so test files sharing one NATS server never hear each other. */
export function uniqueNamespace(prefix = 't'): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw lastError ?? new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
