import { Module } from '@nestjs/common';
import { RulesWrites } from '../shared/rules-writes.service';
import { SegmentsHandler } from './segments.handler';
import { SegmentsService } from './segments.service';

@Module({ controllers: [SegmentsHandler], providers: [SegmentsService, RulesWrites], exports: [SegmentsService] })
export class SegmentsModule {}
