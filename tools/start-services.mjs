// `npm run start:services`: the real topology on one machine. Each service runs as its own
// process over NATS_URL and DATABASE_URL (defaults: the machine's NATS and PostgreSQL), exactly
// as each would run in its own container; one that exits is restarted. Ctrl-C stops them all.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const ALL = ['identity', 'admin', 'access', 'billing', 'webhooks-out', 'branding', 'gateway'];
// `npm run start:services -- identity gateway` starts only those.
const SERVICES = process.argv.length > 2 ? process.argv.slice(2) : ALL;
const unknown = SERVICES.filter((service) => !ALL.includes(service));
if (unknown.length) {
  console.error(`Unknown service: ${unknown.join(', ')} (one of ${ALL.join(', ')})`);
  process.exit(1);
}
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

// The migration step first, as a deployment runs it (here with DATABASE_URL's role, which owns the schemas).
const migrated = spawnSync(process.execPath, ['-r', '@swc-node/register', 'apps/local/src/migrate.ts'], { env, stdio: 'inherit' });
if (migrated.status !== 0) process.exit(migrated.status ?? 1);

// A service that exits is started again after a delay that doubles with each quick exit (1 s up to
// 30 s) and resets once it ran for a minute; each exit and restart is logged.
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;
const HEALTHY_AFTER_MS = 60_000;

const children = new Map();
let stopping = false;

function run(service, delay = RESTART_MIN_MS) {
  const prefix = `[${service}] `.padEnd(16);
  const startedAt = Date.now();
  const child = spawn(process.execPath, ['-r', '@swc-node/register', `apps/${service}/src/main.ts`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.set(service, child);
  console.log(`${prefix}started, pid ${child.pid}`);
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, prefix)));
  }
  child.on('exit', (code, signal) => {
    children.delete(service);
    if (stopping) return console.log(`${prefix}stopped`);
    const next = Date.now() - startedAt > HEALTHY_AFTER_MS ? RESTART_MIN_MS : delay;
    console.log(`${prefix}exited (${signal ?? `code ${code}`}); restarting in ${next / 1000} s`);
    setTimeout(() => stopping || run(service, Math.min(next * 2, RESTART_MAX_MS)), next);
  });
}

for (const service of SERVICES) run(service);

function stop() {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill('SIGTERM');
  const exitWhenDone = setInterval(() => children.size === 0 && process.exit(0), 100);
  // Each service ends within its own SHUTDOWN_GRACE_MS; this is the last resort.
  setTimeout(() => {
    clearInterval(exitWhenDone);
    for (const child of children.values()) child.kill('SIGKILL');
    process.exit(1);
  }, 30_000).unref();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
console.log(`Starting ${SERVICES.length} services over ${env.NATS_URL}; the gateway listens on port ${env.PORT ?? 3000}.`);
