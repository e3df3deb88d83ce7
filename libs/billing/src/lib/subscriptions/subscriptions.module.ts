import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { ProcessorModule } from '../processor/processor.module';
import { EntitlementsAnnouncer } from './entitlements-announcer';
import { ManualGrantExpiry } from './manual-grant-expiry';
import { ProcessorSubscriptionSync } from './processor-subscription-sync';
import { SubscriptionCancellation } from './subscription-cancellation';
import { SubscriptionWriter } from './subscription-writer';
import { SubscriptionsHandler } from './subscriptions.handler';
import { SubscriptionsService } from './subscriptions.service';

@Module({
  imports: [ProcessorModule, CatalogModule],
  controllers: [SubscriptionsHandler],
  providers: [EntitlementsAnnouncer, SubscriptionWriter, ProcessorSubscriptionSync, SubscriptionsService, SubscriptionCancellation, ManualGrantExpiry],
  exports: [SubscriptionWriter, ProcessorSubscriptionSync],
})
export class SubscriptionsModule {}
