import { Module } from '@nestjs/common';
import { StatsHandler } from './stats.handler';
import { StatsService } from './stats.service';

@Module({ controllers: [StatsHandler], providers: [StatsService] })
export class StatsModule {}
