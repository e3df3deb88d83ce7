import { Module } from '@nestjs/common';
import { CrawlersModule } from '../crawlers/crawlers.module';
import { MetersModule } from '../meters/meters.module';
import { PassesModule } from '../passes/passes.module';
import { ReadersModule } from '../readers/readers.module';
import { SegmentsModule } from '../segments/segments.module';
import { SharingModule } from '../sharing/sharing.module';
import { StatsModule } from '../stats/stats.module';
import { SubscribersModule } from '../subscribers/subscribers.module';
import { AccessCheckHandler } from './access-check.handler';
import { AccessDecisionService } from './access-decision.service';
import { EdgeCheckBatches } from './edge-check-batches.service';
import { PaywallCatalog } from './paywall-catalog.service';

@Module({
  imports: [CrawlersModule, ReadersModule, SubscribersModule, MetersModule, PassesModule, StatsModule, SharingModule, SegmentsModule],
  controllers: [AccessCheckHandler],
  providers: [AccessDecisionService, EdgeCheckBatches, PaywallCatalog],
})
export class DecisionsModule {}
