import { Module } from '@nestjs/common';
import { SharingModule } from '../sharing/sharing.module';
import { AccessStatsService } from './access-stats.service';
import { RollupsService } from './rollups.service';
import { StatsHandler } from './stats.handler';

@Module({ imports: [SharingModule], controllers: [StatsHandler], providers: [AccessStatsService, RollupsService], exports: [RollupsService] })
export class StatsModule {}
