import { Module } from '@nestjs/common';
import { PassesModule } from '../passes/passes.module';
import { StatsModule } from '../stats/stats.module';
import { TrackEventsHandler } from './track-events.handler';
import { TrackEventsService } from './track-events.service';

@Module({ imports: [PassesModule, StatsModule], controllers: [TrackEventsHandler], providers: [TrackEventsService] })
export class TrackingModule {}
