import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../../../..');

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const socket = new Socket();
    socket.once('connect', () => ok(!!socket.end()));
    socket.once('error', () => ok(false));
    socket.connect(port, '127.0.0.1');
  });
}

/** Resolves with the exit code (or signal) once `child` has exited. */
export function exited(child: ChildProcess): Promise<number | NodeJS.Signals> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? (child.signalCode as NodeJS.Signals));
  return new Promise((ok) => child.once('exit', (code, signal) => ok(code ?? (signal as NodeJS.Signals))));
}

/**
 * A server of the test's own on a free local port, so a test can stop it, freeze it and start it
 * again (same port) without touching the one other tests share.
 */
abstract class PrivateServer {
  private child: ChildProcess | undefined;

  protected constructor(readonly port: number) {}

  /** The executable and its arguments. */
  protected abstract command(): [string, string[]];

  async resume(): Promise<void> {
    const [command, args] = this.command();
    const child = spawn(command, args, { stdio: 'ignore' });
    this.child = child;
    const deadline = Date.now() + 20_000;
    while (!(await portOpen(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${command} did not start on port ${this.port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Freezes the server (SIGSTOP): connections stay open and nothing answers, as in a hang. */
  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  /** Stops the server (as an outage would) and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited(child);
  }
}

export interface PrivateNatsOptions {
  /** Clients must speak TLS; the server presents this certificate (files). */
  tls?: { certFile: string; keyFile: string };
  /** Clients must log in as this user. */
  auth?: { user: string; password: string };
}

/** A NATS server with JetStream of the test's own, with its own store (kept across stop and resume). */
export class PrivateNatsServer extends PrivateServer {
  private readonly store = mkdtempSync(join(tmpdir(), 'gatehouse-nats-'));

  private constructor(
    port: number,
    private readonly options: PrivateNatsOptions,
  ) {
    super(port);
  }

  static async start(options: PrivateNatsOptions = {}): Promise<PrivateNatsServer> {
    const server = new PrivateNatsServer(await freePort(), options);
    await server.resume();
    return server;
  }

  get url(): string {
    return `${this.options.tls ? 'tls' : 'nats'}://127.0.0.1:${this.port}`;
  }

  protected command(): [string, string[]] {
    const { tls, auth } = this.options;
    return [
      '/usr/sbin/nats-server',
      [
        ...['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.store],
        ...(tls ? ['--tls', '--tlscert', tls.certFile, '--tlskey', tls.keyFile] : []),
        ...(auth ? ['--user', auth.user, '--pass', auth.password] : []),
      ],
    ];
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.store, { recursive: true, force: true });
  }
}

/** A Redis of the test's own, without persistence. */
export class PrivateRedis extends PrivateServer {
  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  protected command(): [string, string[]] {
    return ['redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']];
  }
}

/** The newest PostgreSQL installed from Debian's packages (what `.ci/run` starts as the shared server). */
const postgresBin = (tool: string) => join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))[0] ?? '', 'bin', tool);

/**
 * A PostgreSQL cluster of the test's own (real binaries, run as the `postgres` user), on a free
 * port: roles are cluster-wide, and a test that stops or restarts its database must not touch the
 * one other tests share. Local socket connections are trusted (the administrator's); TCP ones need
 * a password, as a deployment's would.
 */
export class PrivatePostgres {
  private readonly dir = mkdtempSync(join(tmpdir(), 'gatehouse-pg-'));

  private constructor(
    readonly port: number,
    private readonly tls: boolean,
  ) {}

  /** With `tls`, the server also takes TLS connections, presenting that certificate (PEM). */
  static async start(options: { tls?: { cert: string; key: string } } = {}): Promise<PrivatePostgres> {
    const pg = new PrivatePostgres(await freePort(), options.tls !== undefined);
    chmodSync(pg.dir, 0o777);
    try {
      await pg.asPostgres(postgresBin('initdb'), ['-D', pg.data, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '--no-sync', '-E', 'UTF8']);
      if (options.tls) {
        // Where ssl=on looks by default; the key must belong to the server's user and be private.
        const { uid, gid } = statSync(pg.data);
        for (const [file, pem] of [['server.crt', options.tls.cert], ['server.key', options.tls.key]]) {
          writeFileSync(join(pg.data, file), pem, { mode: 0o600 });
          chownSync(join(pg.data, file), uid, gid);
        }
      }
      await pg.resume();
      await pg.psql('postgres', "ALTER ROLE postgres PASSWORD 'postgres'");
      await pg.psql('postgres', 'CREATE DATABASE gatehouse');
    } catch (err) {
      await pg.destroy();
      throw err;
    }
    return pg;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  /** Environment for psql and scripts run as the administrator over the local socket. */
  get adminEnv(): Record<string, string> {
    return { PGHOST: this.dir, PGPORT: String(this.port), PGUSER: 'postgres' };
  }

  url(user = 'postgres', password = 'postgres', database = 'gatehouse'): string {
    return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${this.port}/${database}`;
  }

  psql(database: string, sql: string): Promise<string> {
    return run('psql', ['-v', 'ON_ERROR_STOP=1', '--no-psqlrc', '-qAt', '-d', database, '-c', sql], this.adminEnv);
  }

  async resume(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off${this.tls ? ' -c ssl=on' : ''}`;
    await this.asPostgres(postgresBin('pg_ctl'), ['-D', this.data, '-o', options, '-l', join(this.dir, 'log'), '-w', '-t', '60', 'start']);
  }

  /** Stops the server at once, as a crash or a failover would (connections are cut). */
  async stop(): Promise<void> {
    await this.asPostgres(postgresBin('pg_ctl'), ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private asPostgres(command: string, args: string[]): Promise<string> {
    return run('runuser', ['-u', 'postgres', '--', command, ...args], {});
  }
}

function run(command: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(command, args, { env: { ...process.env, ...env }, cwd: tmpdir() }, (err, stdout, stderr) =>
      err ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || err.message}`)) : resolvePromise(stdout),
    );
  });
}
