import { Module } from '@nestjs/common';
import { ExportsController } from './exports.controller';
import { ImportsController } from './imports.controller';

/** Moving a subscriber base in and out (docs/imports.md), behind the gateway's edge guard. */
@Module({ controllers: [ImportsController, ExportsController] })
export class ImportsRoutesModule {}
