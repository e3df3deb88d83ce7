import type { FastifyInstance, FastifyReply, onSendHookHandler } from 'fastify';
import { Readable, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip';
const CODINGS: readonly ContentCoding[] = ['br', 'gzip'];

/**
 * The coding to answer with, as the request's Accept-Encoding allows it (RFC 9110 12.5.3): the one
 * with the higher weight, brotli when equal; null for the identity (no header, or both refused).
 */
export function negotiatedCoding(acceptEncoding: string | undefined): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const item of acceptEncoding.toLowerCase().split(',')) {
    const [coding, ...parameters] = item.split(';').map((part) => part.trim());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (coding) weights.set(coding, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: ContentCoding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const best = CODINGS.reduce<ContentCoding | null>((chosen, coding) => (weightOf(coding) > (chosen ? weightOf(chosen) : 0) ? coding : chosen), null);
  return best;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Both codings of a body read once and served often (the SDK's bundles), at the strongest settings,
 * off the event loop: no request pays for them.
 */
export async function precompressed(body: Buffer): Promise<Record<ContentCoding, Buffer>> {
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipped(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip: gz };
}

/** Text worth compressing; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|problem\+json|manifest\+json)|image\/svg\+xml)/;
/** Below this a compressed body saves less than the header costs. */
const MIN_BYTES = 1024;

/** Marks an answer that depends on Accept-Encoding, for caches between here and the browser. */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (!/\baccept-encoding\b/i.test(vary)) void reply.header('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Compresses the successful answers of the routes under `prefixes` as they stream out (brotli or
 * gzip, as negotiated): the dashboard's files, Swagger UI's and the OpenAPI document, which staff
 * and developers load now and then, so they are compressed on the way out rather than kept
 * compressed. Only those routes carry the hook: the API's answers never pass through it. The entity
 * tag becomes weak, the compressed bytes being another representation of the same file.
 */
export function compressAnswersUnder(fastify: FastifyInstance, prefixes: readonly string[]): void {
  const covered = (url: string) => prefixes.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
  fastify.addHook('onRoute', (route) => {
    if (covered(route.url)) route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), compress];
  });
}

const compress: onSendHookHandler = (request, reply, payload, done) => {
  if (reply.statusCode !== 200 || payload === null || payload === undefined || reply.hasHeader('content-encoding')) return done(null, payload);
  if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
  varyOnEncoding(reply);
  const length = typeof payload === 'string' ? Buffer.byteLength(payload) : Buffer.isBuffer(payload) ? payload.length : Number(reply.getHeader('content-length') ?? MIN_BYTES);
  const coding = negotiatedCoding(request.headers['accept-encoding']);
  if (!coding || length < MIN_BYTES) return done(null, payload);
  const source = typeof payload === 'string' || Buffer.isBuffer(payload) ? Readable.from([payload]) : (payload as Readable);
  const compressor = coding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: length } }) : createGzip({ level: 6 });
  const entityTag = reply.getHeader('etag');
  if (typeof entityTag === 'string' && !entityTag.startsWith('W/')) void reply.header('ETag', `W/${entityTag}`);
  void reply.header('Content-Encoding', coding).removeHeader('content-length');
  // A failed read destroys the compressor too, so the answer is cut off rather than left hanging.
  done(null, pipeline(source, compressor, () => undefined));
};
