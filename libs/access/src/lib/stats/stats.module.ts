import { Module } from '@nestjs/common';
import { AccessStatsService } from './access-stats.service';
import { RollupsService } from './rollups.service';
import { StatsHandler } from './stats.handler';

@Module({ controllers: [StatsHandler], providers: [AccessStatsService, RollupsService], exports: [RollupsService] })
export class StatsModule {}
