import { Module } from '@nestjs/common';
import { SharingModule } from '../sharing/sharing.module';
import { AccessStatsService } from './access-stats.service';
import { OrganisationReadsService } from './organisation-reads.service';
import { RollupsService } from './rollups.service';
import { StatsHandler } from './stats.handler';

@Module({ imports: [SharingModule], controllers: [StatsHandler], providers: [AccessStatsService, RollupsService, OrganisationReadsService], exports: [RollupsService, OrganisationReadsService] })
export class StatsModule {}
