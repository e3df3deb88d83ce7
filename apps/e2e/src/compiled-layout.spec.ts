import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ELEMENT_LOCALES } from '@gatehouse/contracts';
import { createTestDatabase, eventually, testNatsUrl, testRedisUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { layOutImage, type ImageLayout } from './support/image-layout';
import { exited, freePort, ROOT } from './support/processes';

jest.setTimeout(90_000);

/** Runs a command in the image, as its user, to its end. */
async function runIn(image: ImageLayout, command: string[], env: Record<string, string> = {}): Promise<{ code: number | NodeJS.Signals; output: string }> {
  const child = image.start(env, command);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { code: await exited(child), output };
}

/**
 * docker/Dockerfile's images, laid out on this machine as the runtime stage holds them (compiled
 * JavaScript, production packages only, read-only, uid 1000) and started with their CMD: the
 * gateway's image over NATS with identity's beside it, as a deployment runs them.
 */
describe('the images docker/Dockerfile builds, run as laid out', () => {
  let gateway: ImageLayout;
  let identity: ImageLayout;
  let db: TestDatabase;
  const processes: ChildProcess[] = [];
  let output = '';
  let base: string;
  const environments = new Map<ImageLayout, Record<string, string>>();

  beforeAll(async () => {
    gateway = layOutImage('gateway');
    identity = layOutImage('identity');
    db = await createTestDatabase();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const deployment = { NATS_URL: testNatsUrl(), BUS_NAMESPACE: uniqueNamespace('image'), LOG_LEVEL: 'warn' };
    const identityEnv = {
      ...deployment,
      DATABASE_URL: db.url,
      HEALTH_PORT: String(await freePort()),
      SIGNING_KEYS_KEY: randomBytes(32).toString('base64'),
      SMTP_URL: 'smtp://127.0.0.1:2525',
    };
    // The migration step first (the deployment's, docs/operations.md), with the image's own entry point.
    const migrated = await runIn(identity, ['/bin/sh', '-c', `exec node dist/services/apps/identity/src/main.js migrate`], identityEnv);
    if (migrated.code !== 0) throw new Error(`identity's migration step failed: ${migrated.output}`);
    environments.set(identity, identityEnv).set(gateway, { ...deployment, REDIS_URL: testRedisUrl(), PORT: String(port) });
    for (const [image, env] of environments) {
      const child = image.start(env);
      processes.push(child);
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
    }
    await eventually(async () => ((await fetch(`${base}/api/v1/auth/.well-known/jwks.json`)).status === 200 ? true : undefined), 60_000).catch((err) => {
      throw new Error(`the images did not come up: ${err}\n${output}`);
    });
  });

  afterAll(async () => {
    for (const child of processes) {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      await exited(child);
    }
    await db?.drop();
    gateway?.remove();
    identity?.remove();
  });

  it('runs as uid 1000 in a directory it cannot write, with neither TypeScript nor swc installed', async () => {
    expect(gateway.user).toEqual({ uid: 1000, gid: 1000 });
    expect(gateway.packages).toEqual(expect.arrayContaining(['@nestjs/core', 'fastify', 'pg']));
    const compilers = ['typescript', '@swc/core', '@swc-node/register', 'ts-node', 'jest'];
    expect(gateway.packages.filter((name) => compilers.includes(name))).toEqual([]);
    const probe = await runIn(gateway, [
      'node',
      '-e',
      `for (const name of ['typescript', '@swc/core', '@swc-node/register']) { try { require.resolve(name); console.log('resolves', name); } catch { console.log('absent', name); } }
       try { require('fs').writeFileSync('written', ''); console.log('wrote'); } catch (err) { console.log(err.code); }
       console.log('uid', process.getuid());`,
    ]);
    expect(probe.output).toBe(['absent typescript', 'absent @swc/core', 'absent @swc-node/register', 'EACCES', `uid ${process.getuid?.() === 0 ? 1000 : process.getuid?.()}`, ''].join('\n'));
  });

  it.each([
    ['gatehouse', 'dist/libs/sdk/gatehouse.js'],
    ['elements', 'dist/libs/elements/elements.js'],
    ['account', 'dist/libs/elements/account.js'],
  ])('serves /sdk/v1/%s.js, the bundle built into the image', async (name, built) => {
    const res = await fetch(`${base}/sdk/v1/${name}.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(ROOT, built)))).toBe(true);
    const map = await fetch(`${base}/sdk/v1/${name}.js.map`);
    expect(map.status).toBe(200);
  });

  it.each(ELEMENT_LOCALES)('serves the elements\' %s message table built into the image', async (lang) => {
    const res = await fetch(`${base}/sdk/v1/messages-${lang}.json`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(ROOT, `dist/libs/elements/messages/${lang}.json`)))).toBe(true);
  });

  it('serves the API docs at /docs, with Swagger UI\'s own files and the OpenAPI document', async () => {
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /<script src="\.?\/?([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(`${base}/docs/${script!.replace(/^docs\//, '')}`)).status).toBe(200);
    const document = await fetch(`${base}/docs/json`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('passes the HEALTHCHECK of the Dockerfile, in the gateway\'s image and in a service\'s', async () => {
    for (const [image, env] of environments) {
      expect(image.healthcheck.join(' ')).toContain('/healthz');
      expect(await runIn(image, image.healthcheck, env)).toEqual({ code: 0, output: '' });
    }
  });

  it('answers through the service images: identity\'s signing keys, over NATS', async () => {
    const res = await fetch(`${base}/api/v1/auth/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
  });
});
