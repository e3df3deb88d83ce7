import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** A system under test: where it answers, how long it took to answer, and its processes. */
export interface Started {
  url: string;
  coldStartMs: number;
  /** Proportional set size (shared pages split between their sharers) of the process and every descendant, an embedded PostgreSQL included, in MiB. */
  rssMiB(): number;
  /** The same, of the Node.js processes only. */
  nodeMiB(): number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The bare Fastify "hello" every ratio is measured against, in its own process like the system. */
export async function startBareFastify(): Promise<Started> {
  const port = await freePort();
  const script = `const app = require('fastify')(); app.get('/', async () => ({ hello: 'world' })); app.listen({ port: ${port}, host: '127.0.0.1' });`;
  return started(spawn(process.execPath, ['-e', script], { stdio: 'ignore' }), `http://127.0.0.1:${port}`, '/');
}

export interface SystemOptions {
  services: boolean;
  /** A PostgreSQL server to use instead of the embedded one (a database of its own is created on it). */
  databaseUrl?: string;
  natsUrl: string;
  namespace: string;
  /** Where `npm start`'s process writes its CPU profile (node --cpu-prof) when it stops. */
  profileDir?: string;
}

export const BENCH_ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

/** `npm start` (embedded defaults) or `npm run start:services`, with TRUST_PROXY so each request can be a distinct client. */
export async function startSystem(options: SystemOptions): Promise<Started> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const env = systemEnv(options, { PORT: String(port), DATA_DIR: dataDir });
  const profile = options.profileDir && !options.services ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
  const args = options.services ? [START_SERVICES] : [...profile, '-r', '@swc-node/register', 'apps/local/src/main.ts'];
  const { child, stderr } = spawnSystem(args, env);
  const system = await started(child, `http://127.0.0.1:${port}`, '/docs', stderr);
  return {
    ...system,
    stop: async () => {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A replica of the spread topology and where its Prometheus metrics answer. */
export interface Replica {
  name: string;
  service: 'gateway' | 'access';
  /** The gateway's public URL. */
  url?: string;
  metricsUrl: string;
}

export interface SpreadSystem {
  replicas: Replica[];
  stop(): Promise<void>;
}

/**
 * The topology of `npm run start:services` with two gateways and two access replicas on one NATS:
 * `tools/start-services.mjs` once for the five other services and once per replica, each replica
 * with its own HEALTH_PORT (and the gateways their own PORT). The migration step each of them runs
 * first is serialised by its advisory lock.
 */
export async function startSpread(options: Omit<SystemOptions, 'services' | 'profileDir'> & { replicas: number }): Promise<SpreadSystem> {
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error(`stopping: ${String(err)}`));
  };
  try {
    const others = spawnSystem([START_SERVICES, 'identity', 'admin', 'billing', 'webhooks-out', 'branding'], systemEnv({ ...options, services: true }));
    stops.push(() => stopTree(others.child));
    const replicas: Replica[] = [];
    const pending: Array<Promise<unknown>> = [];
    for (const service of ['access', 'gateway'] as const) {
      for (let i = 1; i <= options.replicas; i++) {
        const [port, healthPort] = [await freePort(), await freePort()];
        const { child, stderr } = spawnSystem([START_SERVICES, service], systemEnv({ ...options, services: true }, { PORT: String(port), HEALTH_PORT: String(healthPort) }));
        stops.push(() => stopTree(child));
        const operations = `http://127.0.0.1:${healthPort}`;
        const url = service === 'gateway' ? `http://127.0.0.1:${port}` : undefined;
        replicas.push({ name: `${service} ${i}`, service, url, metricsUrl: `${operations}/metrics` });
        pending.push(started(child, url ?? operations, url ? '/docs' : '/readyz', stderr));
      }
    }
    await Promise.all(pending);
    return { replicas, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

const START_SERVICES = 'tools/start-services.mjs';

function systemEnv(options: Pick<SystemOptions, 'services' | 'databaseUrl' | 'natsUrl' | 'namespace'>, own: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TRUST_PROXY: 'true',
    BUS_NAMESPACE: options.namespace,
    BOOTSTRAP_ADMIN_EMAIL: BENCH_ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: BENCH_ADMIN.password,
    BOOTSTRAP_PUBLICATION_NAME: 'Bench Daily',
    BOOTSTRAP_PUBLICATION_DOMAINS: 'localhost,127.0.0.1',
  };
  for (const name of ['DATABASE_URL', 'NATS_URL', 'LOG_LEVEL', 'HEALTH_PORT', 'REDIS_URL', 'PORT']) delete env[name];
  if (options.databaseUrl) env['DATABASE_URL'] = options.databaseUrl;
  if (options.services) {
    env['NATS_URL'] = options.natsUrl;
    env['DATABASE_URL'] ??= 'postgres://postgres@127.0.0.1:5432/gatehouse_bench';
  }
  return { ...env, ...own };
}

function spawnSystem(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], cwd: process.cwd() });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  return { child, stderr: () => stderr };
}

async function started(child: ChildProcess, url: string, readyPath: string, stderr: () => string = () => ''): Promise<Started> {
  const begun = Date.now();
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${url} exited before answering: ${stderr()}`);
    if (Date.now() - begun > 180_000) throw new Error(`${url}${readyPath} did not answer within 180 s: ${stderr()}`);
    const ok = await fetch(`${url}${readyPath}`).then((res) => res.ok, () => false);
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const coldStartMs = Date.now() - begun;
  return {
    url,
    coldStartMs,
    rssMiB: () => treeOf(child.pid as number).reduce((sum, pid) => sum + pssKiB(pid), 0) / 1024,
    nodeMiB: () => treeOf(child.pid as number).filter(isNode).reduce((sum, pid) => sum + pssKiB(pid), 0) / 1024,
    stop: () => stopTree(child),
  };
}

async function stopTree(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const tree = treeOf(child.pid as number);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => tree.forEach((pid) => killQuietly(pid)), 30_000);
  await exited;
  clearTimeout(timer);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The process and its descendants, from /proc. */
function treeOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** By its executable: Node 24 names its main thread `MainThread`, so `comm` no longer says `node`. */
function isNode(pid: number): boolean {
  try {
    return basename(readlinkSync(`/proc/${pid}/exe`)) === 'node';
  } catch {
    return false;
  }
}

/** PostgreSQL's backends share its buffers: their RSS added up would count them many times over. */
function pssKiB(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}
