import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppError } from '@gatehouse/platform';
import type { FastifyReply } from 'fastify';
import { ifNoneMatchHits } from '../branding/entity-tag';
import { Auth } from '../edge/credentials';
import { negotiatedCoding, varyOnEncoding } from './compression';
import { WebAssets } from './web-assets.service';
import { WEB_BUNDLES } from './web-bundles';

/** `gatehouse.js`, `gatehouse.<hash>.js`, and either's `.map`; `messages-de.json` and `messages-de.<hash>.json`. */
const FILE = /^([a-z][a-z0-9-]*)(?:\.([0-9a-f]{12}))?\.(js|json)(\.map)?$/;
const ALIAS_MAX_AGE = 300;
const IMMUTABLE_MAX_AGE = 365 * 24 * 3600;

/**
 * The browser bundles (decisions J1): `/sdk/v1/<name>.js` is a short-lived alias of the current
 * build, which is also served for good under its content-hashed name `/sdk/v1/<name>.<hash>.js`
 * (named by the alias's `Content-Location`); the elements' message tables likewise as `.json`. Any origin may load them. A bundle that is not built
 * answers 503, an unknown or outdated name 404, both as problem details.
 */
@ApiExcludeController()
@Controller('sdk/v1')
export class WebAssetsController {
  constructor(private readonly assets: WebAssets) {}

  @Get(':file')
  @Auth('none')
  async serve(
    @Param('file') file: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('accept-encoding') acceptEncoding: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const [, name, hash, extension, isMap] = FILE.exec(file) ?? [];
    const bundle = WEB_BUNDLES.find((b) => b.name === name && b.file.endsWith(`.${extension}`));
    if (!bundle || (isMap && extension !== 'js')) throw new AppError('not_found', `There is no ${file} here.`);
    const loaded = await this.assets.load(bundle);
    const plain = `${name}.${extension}`;
    if (hash !== undefined && hash !== loaded.hash) throw new AppError('not_found', `${file} is not the current build of ${plain}; load ${name}.${loaded.hash}.${extension} or ${plain}.`);
    if (isMap && !loaded.map) throw new AppError('not_found', `${file} has no source map on this server.`);
    const coding = isMap ? null : negotiatedCoding(acceptEncoding);
    const body = isMap ? loaded.map : coding ? loaded.encoded[coding] : loaded.code;
    // Each representation its own strong tag (RFC 9110 8.8.3): the compressed bytes differ from the plain ones.
    const entityTag = `"${loaded.hash}${isMap ? '-map' : ''}${coding ? `-${coding}` : ''}"`;
    if (!isMap) varyOnEncoding(reply);
    if (coding) void reply.header('Content-Encoding', coding);
    void reply
      .header('Content-Type', isMap || extension === 'json' ? 'application/json; charset=utf-8' : 'application/javascript; charset=utf-8')
      .header('Cache-Control', hash ? `public, max-age=${IMMUTABLE_MAX_AGE}, immutable` : `public, max-age=${ALIAS_MAX_AGE}`)
      .header('ETag', entityTag)
      .header('Access-Control-Allow-Origin', '*')
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .header('X-Content-Type-Options', 'nosniff');
    if (!hash && !isMap) void reply.header('Content-Location', `${name}.${loaded.hash}.${extension}`);
    if (ifNoneMatchHits(ifNoneMatch, entityTag)) {
      await reply.status(304).send();
      return;
    }
    await reply.status(200).send(body);
  }
}
