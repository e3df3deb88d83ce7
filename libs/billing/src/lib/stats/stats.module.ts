import { Module } from '@nestjs/common';
import { BillingStatsService } from './billing-stats.service';
import { StatsHandler } from './stats.handler';

@Module({ controllers: [StatsHandler], providers: [BillingStatsService] })
export class StatsModule {}
