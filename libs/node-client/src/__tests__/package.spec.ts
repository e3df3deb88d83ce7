import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '../../../..');
const DIST = join(ROOT, 'dist/libs/node-client');

/** The publishable package as a publisher installs it: built, loaded and type-checked outside the monorepo. */
describe('the @gatehouse/node package', () => {
  let consumer: string;

  beforeAll(async () => {
    await run(process.execPath, [join(ROOT, 'libs/node-client/build.mjs')], { cwd: ROOT });
    consumer = await mkdtemp(join(tmpdir(), 'gatehouse-node-consumer-'));
  }, 120_000);

  afterAll(() => rm(consumer, { recursive: true, force: true }));

  it('is named, licensed and has no runtime dependency', async () => {
    const manifest = JSON.parse(await readFile(join(DIST, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@gatehouse/node', license: 'Apache-2.0', main: 'index.js', types: 'index.d.ts' });
    expect(manifest.dependencies).toBeUndefined();
    expect(await readFile(join(DIST, 'index.js'), 'utf8')).not.toMatch(/require\("@gatehouse\//);
  });

  it('loads in plain Node and verifies a signed delivery', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const body = JSON.stringify({ event: 'customer.created', data: { customerId: 'c1' }, timestamp: new Date().toISOString() });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const headers = {
      'x-service-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
      'webhook-id': 'd1',
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${createHmac('sha256', Buffer.alloc(32, 7)).update(`d1.${timestamp}.${body}`).digest('base64')}`,
    };
    const script = `const { verifyWebhook, Gatehouse } = require(${JSON.stringify(DIST)});
      new Gatehouse({ baseUrl: 'http://127.0.0.1:1', secretKey: 'sk_x' });
      console.log(verifyWebhook(JSON.parse(process.argv[1])).event);`;
    const { stdout } = await run(process.execPath, ['-e', script, JSON.stringify({ body, headers, secret })], { cwd: consumer });
    expect(stdout.trim()).toBe('customer.created');
  });

  it('type-checks a consumer against its declarations alone', async () => {
    await writeFile(
      join(consumer, 'consumer.ts'),
      `import { Gatehouse, GatehouseApiError, isEvent, Events, type WebhookEvent } from ${JSON.stringify(DIST)};
       const client = new Gatehouse({ baseUrl: 'https://gatehouse.example', secretKey: 'sk_x' });
       async function main(event: WebhookEvent): Promise<string> {
         const subscriptions = await client.subscriptions.list('c1');
         const status: 'active' | 'trialing' | 'past_due' | 'cancelled' = subscriptions[0].status;
         if (isEvent(event, Events.CustomerCreated)) return event.data.email;
         try { await client.customers.create({ email: 'a@example.com', name: 'A' }); } catch (e) { if (e instanceof GatehouseApiError) return e.code; }
         return status;
       }
       void main;
       // @ts-expect-error: checkout needs the price
       void client.subscriptions.checkout({ customerId: 'c1', successUrl: 'https://x', cancelUrl: 'https://x' });
      `,
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'commonjs', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules/@types'), 'consumer.ts'], {
      cwd: consumer,
    }).then(
      () => '',
      (failure: { stdout: string }) => failure.stdout,
    );
    expect(result).toBe('');
  }, 120_000);
});
