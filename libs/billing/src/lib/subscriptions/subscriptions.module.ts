import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { ProcessorModule } from '../processor/processor.module';
import { EntitlementsAnnouncer } from './entitlements-announcer.service';
import { ManualGrantExpiry } from './manual-grant-expiry.service';
import { ProcessorSubscriptionSync } from './processor-subscription-sync.service';
import { SubscriptionCancellation } from './subscription-cancellation.service';
import { SubscriptionWriter } from './subscription-writer.service';
import { SubscriptionsHandler } from './subscriptions.handler';
import { SubscriptionsService } from './subscriptions.service';
import { PlanChangeService } from './plan-change.service';
import { SubscriptionChangesHandler } from './subscription-changes.handler';
import { ScheduledPlanChanges } from './scheduled-plan-changes.service';
import { SubscriptionPauseService } from './subscription-pause.service';
import { SubscriptionSettingsService } from './subscription-settings.service';

@Module({
  imports: [ProcessorModule, CatalogModule],
  controllers: [SubscriptionsHandler, SubscriptionChangesHandler],
  providers: [EntitlementsAnnouncer, SubscriptionWriter, ProcessorSubscriptionSync, SubscriptionsService, SubscriptionCancellation, ManualGrantExpiry, PlanChangeService, ScheduledPlanChanges, SubscriptionPauseService, SubscriptionSettingsService],
  exports: [SubscriptionWriter, ProcessorSubscriptionSync, EntitlementsAnnouncer],
})
export class SubscriptionsModule {}
