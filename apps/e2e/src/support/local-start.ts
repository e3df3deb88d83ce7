import { createTestDatabase, type TestDatabase } from '@gatehouse/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, type Answer, type Call } from './http';
import { freePort, ROOT } from './processes';
import { adminSession } from './staff';
import type { RunningSystem } from './test-system';

/** How `npm start` runs in a test. */
export interface LocalStartOptions {
  /** 'test': a fresh test database; 'embedded': the embedded PostgreSQL `npm start` brings under DATA_DIR. */
  database: 'embedded' | 'test';
  /** More environment of the child process, over what the test sets. */
  env?: Record<string, string>;
  /** The line of its output that says it is up ('Demo publisher site' unless given). */
  waitFor?: string;
}

/**
 * The test system's child-process mode: `npm start` itself (the `start` script of package.json)
 * on a free port and a fresh DATA_DIR: every service in one process on the in-process bus, the
 * demo site, the local fake processor. With `database: 'test'` it uses a fresh test database
 * instead of the embedded PostgreSQL. It is a `RunningSystem` as `TestSystem` is (url, api,
 * adminAccount, sessionOf, databaseUrl, close), so a spec written against that runs against either.
 */
export class LocalStart implements RunningSystem {
  output = '';
  private constructor(
    readonly child: ChildProcess,
    /** The gateway's base URL, http://localhost:<port>. */
    readonly url: string,
    private readonly dataDir: string,
    private readonly db: TestDatabase | undefined,
  ) {}

  static async start(options: LocalStartOptions = { database: 'test' }): Promise<LocalStart> {
    const [port, db] = await Promise.all([freePort(), options.database === 'test' ? createTestDatabase() : undefined]);
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'));
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), EXAMPLE_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...options.env };
    for (const name of ['DATABASE_URL', 'NATS_URL', 'PUBLIC_BASE_URL', 'PROCESSOR_API_URL']) delete env[name];
    if (db) env['DATABASE_URL'] = db.url;
    // Exactly the `start` script of package.json, exec'd so that signals reach the Node process itself.
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const child = spawn('sh', ['-c', `exec ${scripts['start']}`], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const started = new LocalStart(child, `http://localhost:${port}`, dataDir, db);
    child.stdout!.on('data', (chunk) => (started.output += chunk));
    child.stderr!.on('data', (chunk) => (started.output += chunk));
    const marker = options.waitFor ?? 'Demo publisher site';
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`npm start did not come up:\n${started.output}`)), 110_000);
      const check = setInterval(() => {
        if (started.output.includes(marker)) {
          clearTimeout(timer);
          clearInterval(check);
          ok();
        }
      }, 100);
      child.once('exit', (code) => {
        clearTimeout(timer);
        clearInterval(check);
        fail(new Error(`npm start exited with ${code}:\n${started.output}`));
      });
    });
    return started;
  }

  /** The database `npm start` runs on, to see or set what it stores: the test database, or the embedded PostgreSQL (its port from its postmaster.pid). */
  get databaseUrl(): string {
    if (this.db) return this.db.url;
    const port = readFileSync(join(this.dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3];
    return `postgres://postgres:postgres@127.0.0.1:${port}/gatehouse`;
  }

  api<T = any>(path: string, options: Call = {}): Promise<Answer<T>> {
    return call<T>(this.url, `/api/v1${path}`, options);
  }

  /** The bootstrap admin `npm start` created on the fresh database, with the password it generated and printed. */
  get adminAccount(): { email: string; password: string } {
    const [, email, password] = /Demo dashboard login, generated for this start [^:]*: (\S+) \/ (\S+) at/.exec(this.output) ?? [];
    if (!email || !password) throw new Error(`npm start printed no demo login:\n${this.output}`);
    return { email, password };
  }

  /** A staff member's session cookie (the bootstrap admin's unless given), signed in as the dashboard does. */
  async sessionOf(account: { email: string; password: string } = this.adminAccount): Promise<string> {
    return (await adminSession(this.url, account)).session;
  }

  /** Whatever is left running (the whole process group, embedded PostgreSQL and the fake processor included), then the data. */
  async close(): Promise<void> {
    if (this.child.pid && this.child.exitCode === null) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(this.dataDir, { recursive: true, force: true });
    await this.db?.drop();
  }
}
