import { Injectable } from '@nestjs/common';
import { ReadModels, type ReadModel } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { GatewayConfig } from '../gateway.config';
import { precompressed, type ContentCoding } from './compression';

/** `dist/` of the repository, where `npm run build:web` puts the bundles. */
const DEFAULT_DIR = resolve(__dirname, '../../../../../dist');

export interface LoadedBundle {
  code: Buffer;
  /** The code in each content coding the gateway negotiates (the source map is served as it is: only developer tools load it). */
  encoded: Record<ContentCoding, Buffer>;
  map: Buffer | null;
  /** The first 12 hex digits of the code's SHA-256: the content-hashed name's middle part. */
  hash: string;
  mtimeMs: number;
}

/** Reads a built bundle once, and again when the file changes (a rebuild while the gateway runs). */
@Injectable()
export class WebAssets {
  private readonly dir: string;
  /** By path and modification time: a rebuild is a new key, the old build goes out of the LRU. */
  private readonly loaded: ReadModel<{ path: string; mtimeMs: number }, LoadedBundle>;

  constructor(config: GatewayConfig, readModels: ReadModels) {
    this.dir = config.WEB_ASSETS_DIR ? resolve(config.WEB_ASSETS_DIR) : DEFAULT_DIR;
    this.loaded = readModels.define({
      name: 'web-assets',
      keyOf: ({ path, mtimeMs }) => `${path}@${mtimeMs}`,
      load: async ({ path, mtimeMs }) => {
        const code = await readFile(path);
        const map = await readFile(`${path}.map`).catch(() => null);
        return { code, encoded: await precompressed(code), map, hash: createHash('sha256').update(code).digest('hex').slice(0, 12), mtimeMs };
      },
      max: 8,
      freshMs: 24 * 60 * 60_000,
    });
  }

  async load(bundle: { name: string; file: string }): Promise<LoadedBundle> {
    const path = join(this.dir, bundle.file);
    const found = await stat(path).catch(() => null);
    if (!found?.isFile()) throw new AppError('service_unavailable', `${bundle.name}${extname(bundle.file)} is not built on this server: run \`npm run build:web\`.`);
    return this.loaded.get({ path, mtimeMs: found.mtimeMs });
  }
}
