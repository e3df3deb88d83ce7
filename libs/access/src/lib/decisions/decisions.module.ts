import { Module } from '@nestjs/common';
import { CatalogModule } from './catalog.module';
import { CrawlersModule } from '../crawlers/crawlers.module';
import { MetersModule } from '../meters/meters.module';
import { PassesModule } from '../passes/passes.module';
import { ReadersModule } from '../readers/readers.module';
import { StatsModule } from '../stats/stats.module';
import { SubscribersModule } from '../subscribers/subscribers.module';
import { AccessCheckHandler } from './access-check.handler';
import { AccessDecisionService } from './access-decision.service';

@Module({
  imports: [CatalogModule, CrawlersModule, ReadersModule, SubscribersModule, MetersModule, PassesModule, StatsModule],
  controllers: [AccessCheckHandler],
  providers: [AccessDecisionService],
})
export class DecisionsModule {}
