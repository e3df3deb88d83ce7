import { Module } from '@nestjs/common';
import { PassesModule } from '../passes/passes.module';
import { SharingModule } from '../sharing/sharing.module';
import { StatsModule } from '../stats/stats.module';
import { TrackEventsHandler } from './track-events.handler';
import { TrackEventsService } from './track-events.service';

@Module({ imports: [PassesModule, StatsModule, SharingModule], controllers: [TrackEventsHandler], providers: [TrackEventsService] })
export class TrackingModule {}
