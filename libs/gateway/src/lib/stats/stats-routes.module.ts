import { Module } from '@nestjs/common';
import { StatsController } from './stats.controller';

/** The stats view of the dashboard, behind the gateway's edge guard. */
@Module({ controllers: [StatsController] })
export class StatsRoutesModule {}
