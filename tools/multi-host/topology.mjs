// The hosts of the multi-host scenario: Linux network namespaces on one bridge, each a machine
// with its own network stack (so every server keeps its usual port), and what runs on each.
//
//   gh-mh-a  10.213.77.11  nats-1, gateway-1 and replica 1 of each of the six services
//   gh-mh-b  10.213.77.12  nats-2, gateway-2 and replica 2 of each service
//   gh-mh-c  10.213.77.13  nats-3, Redis, the webhook receiver
//   gh-mh-d  10.213.77.14  PostgreSQL 15 (the machine's binaries, a cluster of its own)
//
// The scenario itself (the load and the faults) runs in the root namespace, which reaches the
// hosts through the bridge as a load balancer and an operator would. Nothing here touches the
// machine's own PostgreSQL, NATS or Redis.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const PREFIX = 'gh-mh';
const SUBNET = '10.213.77';
const BRIDGE = `${PREFIX}-br`;
export const HOSTS = {
  a: { ns: `${PREFIX}-a`, ip: `${SUBNET}.11` },
  b: { ns: `${PREFIX}-b`, ip: `${SUBNET}.12` },
  c: { ns: `${PREFIX}-c`, ip: `${SUBNET}.13` },
  d: { ns: `${PREFIX}-d`, ip: `${SUBNET}.14` },
};
export const SERVICES = ['identity', 'admin', 'access', 'billing', 'webhooks-out', 'branding'];
const NATS_HOSTS = ['a', 'b', 'c'];
const PG_PASSWORD = 'gh-mh-postgres';
export const ADMIN = { email: 'ops@multi-host.example', password: 'multi-host-admin-password' };
export const DOMAIN = 'multi-host.example';
export const RECEIVER_URL = `http://${HOSTS.c.ip}:8080/hooks`;
export const databaseUrl = `postgres://postgres:${PG_PASSWORD}@${HOSTS.d.ip}:5432/gatehouse`;

const sh = (cmd, args, options = {}) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options }).toString();
const quiet = (cmd, args) => {
  try {
    return sh(cmd, args);
  } catch {
    return '';
  }
};
/** A command that does not block the event loop (the load keeps running). */
export const run = (cmd, args) => promisify(execFile)(cmd, args).then(({ stdout }) => stdout);
const inHost = (host, cmd, args) => sh('ip', ['netns', 'exec', HOSTS[host].ns, cmd, ...args]);
/** The veth end on the bridge: taking it down cuts the host off from every other host. */
export const linkOf = (host) => `${HOSTS[host].ns}-0`;

/** Removes every namespace, link and process of a scenario run (this one's or a crashed one's). Synchronous: it also runs on exit. */
export function tearDown(workDir) {
  for (const host of Object.keys(HOSTS)) {
    const { ns } = HOSTS[host];
    // Every process left in the namespace is one this scenario started there.
    const pids = () => quiet('ip', ['netns', 'pids', ns]).split('\n').filter(Boolean);
    for (const pid of pids()) quiet('kill', ['-9', pid]);
    for (let i = 0; i < 50 && pids().length; i++) execFileSync('sleep', ['0.1']);
    quiet('ip', ['netns', 'del', ns]);
    // A namespace lives on while a process holds it; deleting our end of the pair needs no wait.
    quiet('ip', ['link', 'del', linkOf(host)]);
  }
  quiet('ip', ['link', 'del', BRIDGE]);
  if (workDir && existsSync(workDir)) rmSync(workDir, { recursive: true, force: true });
}

/** The bridge, one namespace per host and a veth pair from each to the bridge. */
export function createHosts() {
  if (process.getuid?.() !== 0) throw new Error('the multi-host scenario needs root (ip netns)');
  tearDown();
  sh('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
  sh('ip', ['addr', 'add', `${SUBNET}.1/24`, 'dev', BRIDGE]);
  sh('ip', ['link', 'set', BRIDGE, 'up']);
  for (const host of Object.keys(HOSTS)) {
    const { ns, ip } = HOSTS[host];
    sh('ip', ['netns', 'add', ns]);
    sh('ip', ['link', 'add', linkOf(host), 'type', 'veth', 'peer', 'name', `${ns}-1`]);
    sh('ip', ['link', 'set', `${ns}-1`, 'netns', ns]);
    sh('ip', ['link', 'set', linkOf(host), 'master', BRIDGE]);
    sh('ip', ['link', 'set', linkOf(host), 'up']);
    inHost(host, 'ip', ['link', 'set', 'lo', 'up']);
    inHost(host, 'ip', ['link', 'set', `${ns}-1`, 'name', 'eth0']);
    inHost(host, 'ip', ['addr', 'add', `${ip}/24`, 'dev', 'eth0']);
    inHost(host, 'ip', ['link', 'set', 'eth0', 'up']);
    // Hosts tuned for a cluster: a connection whose data goes unacknowledged fails after about
    // 6 s instead of 15 minutes. NATS servers do not ping a route they are writing to, so this is
    // what ends a route to a partitioned server (docs/operations.md#proven-on-several-hosts).
    inHost(host, 'sysctl', ['-qw', 'net.ipv4.tcp_retries2=4']);
  }
}

export function makeWorkDir() {
  const dir = mkdtempSync(join(tmpdir(), `${PREFIX}-`));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'logs'));
  return dir;
}

/** A long-running process on a host, its output in `<workDir>/logs/<name>.log`. */
export class HostProcess {
  constructor(name, host, command, args, env, workDir) {
    Object.assign(this, { name, host, command, args, env, workDir, child: undefined });
  }

  get log() {
    return join(this.workDir, 'logs', `${this.name}.log`);
  }

  start() {
    const out = createWriteStream(this.log, { flags: 'a' });
    // `ip netns exec` execs the command: the child's pid is the server's own.
    const child = spawn('ip', ['netns', 'exec', HOSTS[this.host].ns, this.command, ...this.args], { env: this.env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    this.child = child;
    return this;
  }

  kill(signal = 'SIGKILL') {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return new Promise((ok) => (this.child.exitCode !== null || this.child.signalCode !== null ? ok() : this.child.once('exit', () => ok())));
  }

  tail(lines = 15) {
    return existsSync(this.log) ? readFileSync(this.log, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no output)';
  }
}

/** A three-node NATS cluster with JetStream; pings every 2 s so a cut route or client is dropped within seconds. */
export function natsNode(index, workDir) {
  const host = NATS_HOSTS[index - 1];
  const { ip } = HOSTS[host];
  const routes = NATS_HOSTS.filter((other) => other !== host).map((other) => `nats://${HOSTS[other].ip}:6222`);
  const store = join(workDir, `nats-${index}`);
  mkdirSync(store, { recursive: true });
  const conf = join(workDir, `nats-${index}.conf`);
  writeFileSync(
    conf,
    [
      `server_name: gh-mh-nats-${index}`,
      `listen: "${ip}:4222"`,
      `http: "${ip}:8222"`,
      'ping_interval: "2s"',
      'ping_max: 2',
      `jetstream { store_dir: "${store}", max_memory_store: 64MB, max_file_store: 1GB }`,
      `cluster { name: gh-mh, listen: "${ip}:6222", routes: [${routes.map((route) => `"${route}"`).join(', ')}] }`,
      '',
    ].join('\n'),
  );
  return new HostProcess(`nats-${index}`, host, '/usr/sbin/nats-server', ['-c', conf], process.env, workDir);
}

export const natsUrl = NATS_HOSTS.map((host) => `nats://${HOSTS[host].ip}:4222`).join(',');

/** PostgreSQL on host d: a cluster of its own, made with the machine's binaries, run as `postgres`. */
export class HostPostgres {
  constructor(workDir) {
    this.dir = join(workDir, 'pg');
    mkdirSync(this.dir);
    chmodSync(this.dir, 0o777);
    this.data = join(this.dir, 'data');
    const versions = readdirSync('/usr/lib/postgresql').sort((x, y) => Number(y) - Number(x));
    this.bin = (tool) => `/usr/lib/postgresql/${versions[0]}/bin/${tool}`;
  }

  asPostgres(tool, args) {
    return inHost('d', 'runuser', ['-u', 'postgres', '--', this.bin(tool), ...args]);
  }

  init() {
    this.asPostgres('initdb', ['-D', this.data, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '--no-sync', '-E', 'UTF8']);
    writeFileSync(join(this.data, 'pg_hba.conf'), `local all all trust\nhost all all ${SUBNET}.0/24 scram-sha-256\n`);
    this.start();
    const psql = (db, sql) => this.asPostgres('psql', ['-h', this.dir, '-p', '5432', '-d', db, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql]);
    psql('postgres', `ALTER ROLE postgres PASSWORD '${PG_PASSWORD}'`);
    psql('postgres', 'CREATE DATABASE gatehouse');
  }

  get options() {
    return `-p 5432 -k ${this.dir} -c listen_addresses=${HOSTS.d.ip} -c fsync=off -c max_connections=300 -c shared_buffers=64MB`;
  }

  start() {
    this.asPostgres('pg_ctl', ['-D', this.data, '-o', this.options, '-l', join(this.dir, 'log'), '-w', '-t', '60', 'start']);
  }

  /** A restart as an operator or a failover does it: connections are cut, the server comes back. Asynchronous: the load goes on meanwhile. */
  async restart() {
    const args = ['-D', this.data, '-o', this.options, '-l', join(this.dir, 'log'), '-m', 'fast', '-w', '-t', '60', 'restart'];
    await run('ip', ['netns', 'exec', HOSTS.d.ns, 'runuser', '-u', 'postgres', '--', this.bin('pg_ctl'), ...args]);
  }
}

/** The keys every replica of a service must share, generated once per run. */
const key = () => randomBytes(32).toString('base64');
const SHARED_KEYS = { PROCESSOR_SETTINGS_KEY: key(), WEBHOOK_SECRETS_KEY: key(), SIGNING_KEYS_KEY: key() };

/** Environment of every Gatehouse process of the scenario. */
export function gatehouseEnv(extra = {}) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(DATABASE_URL|NATS_|REDIS_URL|PORT|HEALTH_PORT|BUS_NAMESPACE|LOG_LEVEL|BOOTSTRAP_)/.test(name)) delete env[name];
  return {
    ...env,
    ...SHARED_KEYS,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    NATS_URL: natsUrl,
    NATS_PING_INTERVAL_MS: '3000',
    EVENT_STREAM_REPLICAS: '3',
    BUS_NAMESPACE: 'ghmh',
    DATABASE_URL: databaseUrl,
    REDIS_URL: `redis://${HOSTS.c.ip}:6379`,
    BCRYPT_COST: '4',
    ALLOW_INSECURE_WEBHOOK_URLS: 'true',
    WEBHOOK_RETRY_DELAYS_SECONDS: '5,15,30,60',
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    BOOTSTRAP_PUBLICATION_NAME: 'Multi-host Times',
    BOOTSTRAP_PUBLICATION_DOMAINS: DOMAIN,
    ...extra,
  };
}

const compiled = (service) => join(ROOT, 'dist/services/apps', service, 'src/main.js');

/** `npm run build:services`: what the images run, so fourteen processes start without a compiler. */
export function buildServices() {
  sh(process.execPath, [join(ROOT, 'tools/build-services.mjs')], { cwd: ROOT });
}

/** The migration step, once per schema, from the operator's side of the bridge. */
export function migrate() {
  for (const service of SERVICES) sh(process.execPath, [compiled(service), 'migrate'], { cwd: ROOT, env: gatehouseEnv({ LOG_LEVEL: 'error' }) });
}

export const GATEWAY_PORT = 3000;
export const healthPort = (service) => 9100 + SERVICES.indexOf(service) + 1;

/** Gateway and one replica of each service on host `host` (`a` is replica 1, `b` replica 2). */
export function gatehouseReplicas(host, workDir) {
  const replica = host === 'a' ? 1 : 2;
  const processes = SERVICES.map(
    (service) => new HostProcess(`${service}-${replica}`, host, process.execPath, [compiled(service)], gatehouseEnv({ HEALTH_PORT: String(healthPort(service)) }), workDir),
  );
  processes.push(new HostProcess(`gateway-${replica}`, host, process.execPath, [compiled('gateway')], gatehouseEnv({ PORT: String(GATEWAY_PORT), HEALTH_PORT: '9100', TRUST_PROXY: 'false' }), workDir));
  return processes;
}

export const gatewayUrl = (host) => `http://${HOSTS[host].ip}:${GATEWAY_PORT}`;

export function redis(workDir) {
  return new HostProcess('redis', 'c', 'redis-server', ['--port', '6379', '--bind', HOSTS.c.ip, '--save', '', '--appendonly', 'no'], process.env, workDir);
}

export function receiver(workDir) {
  return new HostProcess('receiver', 'c', process.execPath, [join(ROOT, 'tools/multi-host/receiver.mjs'), join(workDir, 'received.jsonl')], process.env, workDir);
}

/** Waits until `url` answers 2xx, or fails naming what did not come up. */
export async function waitFor(url, what, timeoutMs, processes = []) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    const dead = processes.find((p) => p.child && p.child.exitCode !== null);
    if (dead || Date.now() > deadline) {
      const culprit = dead ?? processes[0];
      throw new Error(`${what} did not come up (${url})${culprit ? `; ${culprit.name}:\n${culprit.tail()}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
