import { uniqueNamespace } from '@gatehouse/testing';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DASHBOARD_DIR } from './support/dashboard';
import { startGatewayOverNats, type TestGateway } from './support/system';

const DIST = resolve(__dirname, '../../../dist');

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes on the wire, still compressed. */
  wire: Buffer;
}

/** A GET that shows the bytes as sent (fetch would decompress them). */
function get(gateway: TestGateway, path: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    const req = request(`${gateway.url}${path}`, { headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, wire: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

const decoded = (answer: RawAnswer) =>
  answer.headers['content-encoding'] === 'br' ? brotliDecompressSync(answer.wire) : answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.wire) : answer.wire;

/**
 * What the gateway serves to browsers, compressed as each browser asks (brotli, else gzip, else
 * as it is), with the same bytes once decoded, and hashed files cached for good.
 */
describe('compressed web assets: the dashboard, the SDK, the elements and /docs', () => {
  let gateway: TestGateway;
  const assets = readdirSync(resolve(DASHBOARD_DIR, 'assets'));
  const script = assets.find((file) => /^index-.*\.js$/.test(file))!;
  const styles = assets.find((file) => file.endsWith('.css'))!;
  const asset = (file: string) => ({ path: `/dashboard/assets/${file}`, bytes: () => readFileSync(resolve(DASHBOARD_DIR, 'assets', file)), cache: 'public, max-age=31536000, immutable' });

  beforeAll(async () => {
    gateway = await startGatewayOverNats(uniqueNamespace('compress'), { DASHBOARD_DIR });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
  });

  const files = [
    asset(script),
    asset(styles),
    { path: '/sdk/v1/gatehouse.js', bytes: () => readFileSync(resolve(DIST, 'libs/sdk/gatehouse.js')), cache: 'public, max-age=300' },
    { path: '/sdk/v1/elements.js', bytes: () => readFileSync(resolve(DIST, 'libs/elements/elements.js')), cache: 'public, max-age=300' },
    { path: '/docs/swagger-ui-bundle.js', bytes: () => readFileSync(require.resolve('swagger-ui-dist/swagger-ui-bundle.js')), cache: undefined },
  ];

  it('sends brotli to a browser that takes it, gzip to one that takes only gzip, and the file as it is otherwise', async () => {
    for (const file of files) {
      const original = file.bytes();
      const brotli = await get(gateway, file.path, 'gzip, deflate, br, zstd');
      const gzip = await get(gateway, file.path, 'gzip, deflate');
      const plain = await get(gateway, file.path);
      const refused = await get(gateway, file.path, 'br;q=0, gzip;q=0');
      expect([file.path, brotli.status, brotli.headers['content-encoding'], gzip.headers['content-encoding'], plain.headers['content-encoding'], refused.headers['content-encoding']]).toEqual([
        file.path,
        200,
        'br',
        'gzip',
        undefined,
        undefined,
      ]);
      for (const answer of [brotli, gzip, plain, refused]) {
        expect([file.path, decoded(answer).equals(original)]).toEqual([file.path, true]);
        expect([file.path, answer.headers['vary']]).toEqual([file.path, expect.stringMatching(/Accept-Encoding/i)]);
        if (file.cache) expect([file.path, answer.headers['cache-control']]).toEqual([file.path, file.cache]);
      }
      // What a browser downloads is a fraction of the file.
      expect([file.path, brotli.wire.length < original.length * 0.45]).toEqual([file.path, true]);
      expect([file.path, gzip.wire.length < original.length * 0.5]).toEqual([file.path, true]);
    }
  });

  it('serves the SDK under its content-hashed name compressed and immutable, and revalidates each coding', async () => {
    const alias = await get(gateway, '/sdk/v1/elements.js', 'br');
    const hashed = await get(gateway, `/sdk/v1/${alias.headers['content-location']}`, 'br');
    expect(hashed.headers).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(decoded(hashed).equals(decoded(alias))).toBe(true);
    const again = await new Promise<number>((done, fail) =>
      request(`${gateway.url}/sdk/v1/elements.js`, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': String(alias.headers['etag']) } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      })
        .on('error', fail)
        .end(),
    );
    expect(again).toBe(304);
    expect((await get(gateway, '/sdk/v1/elements.js', 'gzip')).headers['etag']).not.toBe(alias.headers['etag']);
  });

  it('compresses the OpenAPI document, and leaves problem details of a missing file alone', async () => {
    const document = await get(gateway, '/docs/json', 'br');
    expect(document.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(document).toString()).openapi).toMatch(/^3\./);
    const missing = await get(gateway, '/sdk/v1/nothing.js', 'br');
    expect([missing.status, missing.headers['content-encoding']]).toEqual([404, undefined]);
    expect(JSON.parse(missing.wire.toString())).toMatchObject({ code: 'not_found' });
  });
});
