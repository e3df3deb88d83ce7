import { Module } from '@nestjs/common';
import { CatalogModule } from '../decisions/catalog.module';
import { SegmentsHandler } from './segments.handler';
import { SegmentsService } from './segments.service';

@Module({ imports: [CatalogModule], controllers: [SegmentsHandler], providers: [SegmentsService], exports: [SegmentsService] })
export class SegmentsModule {}
