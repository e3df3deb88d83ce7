import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A database of the bench's own on an existing PostgreSQL server, dropped afterwards. */
export async function createBenchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const url = new URL(serverUrl);
  const admin = () => new Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  const run = async (sql: string) => {
    const client = admin();
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  return { url: Object.assign(new URL(url), { pathname: `/${name}` }).toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
