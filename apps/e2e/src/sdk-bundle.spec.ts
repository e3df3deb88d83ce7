import { uniqueNamespace } from '@gatehouse/testing';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startGatewayOverNats, type TestGateway } from './support/system';

/** What `npm run build:web` built (it runs before the tests). */
const BUILT = resolve(__dirname, '../../../dist/libs/sdk/gatehouse.js');

/** The SDK's classic script as the gateway serves it (decisions J1): an alias, a content-hashed name, CORS for any page. */
describe('GET /sdk/v1/gatehouse.js', () => {
  let gateway: TestGateway;
  let unbuilt: TestGateway;
  const emptyDir = mkdtempSync(join(tmpdir(), 'gatehouse-no-assets-'));
  const built = readFileSync(BUILT);
  const hash = createHash('sha256').update(built).digest('hex').slice(0, 12);

  beforeAll(async () => {
    [gateway, unbuilt] = await Promise.all([
      startGatewayOverNats(uniqueNamespace('sdk')),
      startGatewayOverNats(uniqueNamespace('sdk'), { WEB_ASSETS_DIR: emptyDir }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await unbuilt?.close();
    rmSync(emptyDir, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}, on = gateway) => fetch(`${on.url}${path}`, { headers });

  it('serves the built script under its short-lived alias, naming the content-hashed copy', async () => {
    const res = await get('/sdk/v1/gatehouse.js', { Origin: 'https://any-publisher.example' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('content-location')).toBe(`gatehouse.${hash}.js`);
    expect(Buffer.from(await res.arrayBuffer()).equals(built)).toBe(true);
  });

  it('serves the content-hashed copy as immutable for a year', async () => {
    const res = await get(`/sdk/v1/gatehouse.${hash}.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(Buffer.from(await res.arrayBuffer()).equals(built)).toBe(true);
  });

  it('serves the source map the script names', async () => {
    expect(built.toString()).toContain('//# sourceMappingURL=gatehouse.js.map');
    const res = await get('/sdk/v1/gatehouse.js.map');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await res.json()) as { sources: string[] }).sources.some((source: string) => source.includes('libs/sdk/src/lib/gatehouse.ts'))).toBe(true);
  });

  it('answers a revalidation with 304 when the copy is current', async () => {
    const first = await get('/sdk/v1/gatehouse.js');
    const res = await get('/sdk/v1/gatehouse.js', { 'If-None-Match': first.headers.get('etag')! });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
  });

  it('answers 404 problem details for an outdated hash or an unknown bundle', async () => {
    for (const path of ['/sdk/v1/gatehouse.000000000000.js', '/sdk/v1/nothing.js', '/sdk/v1/gatehouse.css', '/sdk/v1/..%2Fpackage.json']) {
      const res = await get(path);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({ path, status: 404, type: 'application/problem+json; charset=utf-8' });
      expect(await res.json()).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  it("serves the web components' message tables as JSON, immutable under the hashed name elements.js fetches", async () => {
    const elements = readFileSync(resolve(BUILT, '../../elements/elements.js'), 'utf8');
    const table = readFileSync(resolve(BUILT, '../../elements/messages/de.json'));
    const named = `messages-de.${createHash('sha256').update(table).digest('hex').slice(0, 12)}.json`;
    expect(elements).toContain(named);
    const res = await get(`/sdk/v1/${named}`, { Origin: 'https://any-publisher.example' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await res.json()) as { signIn: string }).signIn).toBe('Anmelden');
    expect((await get('/sdk/v1/messages-de.json')).headers.get('content-location')).toBe(named);
    for (const path of ['/sdk/v1/messages-de.js', '/sdk/v1/messages-de.json.map', '/sdk/v1/messages-xx.json', '/sdk/v1/gatehouse.json']) {
      expect({ path, status: (await get(path)).status }).toEqual({ path, status: 404 });
    }
  });

  it('answers 503 problem details, not a 500, where the bundle is not built', async () => {
    const res = await get('/sdk/v1/gatehouse.js', {}, unbuilt);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await res.json()).toMatchObject({ status: 503, code: 'service_unavailable', detail: expect.stringContaining('npm run build:web') });
  });
});
