import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

/**
 * `npm start` on a bare machine: no DATABASE_URL, no NATS_URL, a fresh DATA_DIR. Every service
 * runs in one process on the in-process bus and an embedded PostgreSQL.
 */
describe('npm start (embedded, one process)', () => {
  let child: ChildProcess;
  let output = '';
  let base: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'));

  beforeAll(async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    delete env['DATABASE_URL'];
    delete env['NATS_URL'];
    delete env['PUBLIC_BASE_URL'];
    // Exactly the `start` script of package.json, exec'd so that signals reach the Node process itself.
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    child = spawn('sh', ['-c', `exec ${scripts['start']}`], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`npm start did not come up:\n${output}`)), 110_000);
      const check = setInterval(() => {
        if (output.includes('API docs:')) {
          clearTimeout(timer);
          clearInterval(check);
          ok();
        }
      }, 100);
      child.once('exit', (code) => {
        clearTimeout(timer);
        clearInterval(check);
        fail(new Error(`npm start exited with ${code}:\n${output}`));
      });
    });
    base = `http://127.0.0.1:${port}`;
  }, 120_000);

  afterAll(async () => {
    // Whatever a failed test left running: the whole process group, embedded PostgreSQL included.
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('prints where the API docs are', () => {
    expect(output).toMatch(/API docs: http:\/\/localhost:\d+\/docs/);
  });

  it('serves the Swagger UI and its OpenAPI document', async () => {
    const ui = await fetch(`${base}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
    const json = await fetch(`${base}/docs/json`);
    expect(json.status).toBe(200);
    const doc = (await json.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/health', '/api/v1/auth/.well-known/jwks.json']));
  });

  it('reports all seven services up by name', async () => {
    const res = await fetch(`${base}/api/v1/health`);
    const body = (await res.json()) as { status: string; services: Record<string, { status: string }> };
    expect(res.status).toBe(200);
    expect(body.status).toBe('up');
    expect(Object.keys(body.services).sort()).toEqual(['access', 'admin', 'billing', 'branding', 'gateway', 'identity', 'webhooks-out']);
    for (const service of Object.values(body.services)) expect(service.status).toBe('up');
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    process.kill(child.pid!, 'SIGTERM');
    await expect(exited).resolves.toBe(0);
    expect(output).not.toMatch(/error/i);
  }, 30_000);
});
