import { Module } from '@nestjs/common';
import { SegmentsHandler } from './segments.handler';
import { SegmentsService } from './segments.service';

@Module({ controllers: [SegmentsHandler], providers: [SegmentsService], exports: [SegmentsService] })
export class SegmentsModule {}
