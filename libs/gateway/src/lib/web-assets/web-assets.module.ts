import { Module } from '@nestjs/common';
import { WebAssetsController } from './web-assets.controller';
import { WebAssets } from './web-assets.service';

/** The built browser bundles, served under `/sdk/v1` beside the API. */
@Module({ controllers: [WebAssetsController], providers: [WebAssets] })
export class WebAssetsModule {}
