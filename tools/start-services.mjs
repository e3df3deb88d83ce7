// `npm run start:services`: the real topology on one machine. Each service runs as its own
// process over NATS_URL and DATABASE_URL (defaults: the machine's NATS and PostgreSQL), exactly
// as each would run in its own container. Ctrl-C stops them all.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const SERVICES = ['identity', 'admin', 'access', 'billing', 'webhooks-out', 'branding', 'gateway'];
const env = {
  ...process.env,
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gatehouse',
};

// One database, one schema per service: create the database on first use.
const url = new URL(env.DATABASE_URL);
const name = url.pathname.slice(1);
const admin = new Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
await admin.connect();
const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
if (rowCount === 0) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
await admin.end();

const children = SERVICES.map((service) => {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', `apps/${service}/src/main.ts`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = `[${service}] `.padEnd(16);
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, prefix)));
  }
  child.on('exit', (code) => {
    console.log(`${prefix}exited with ${code}`);
    if (!stopping) stop(1);
  });
  return child;
});

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 5_000).unref();
}
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());
console.log(`Starting ${SERVICES.length} services over ${env.NATS_URL}; the gateway listens on port ${env.PORT ?? 3000}.`);
