import { Module } from '@nestjs/common';

/** The public routes of the stats feature, behind the gateway's edge guard. */
@Module({ controllers: [] })
export class StatsRoutesModule {}
