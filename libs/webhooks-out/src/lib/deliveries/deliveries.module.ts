import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module';
import { TargetsModule } from '../targets/targets.module';
import { AttemptQueue } from './attempt-queue';
import { DeliveriesHandler } from './deliveries.handler';
import { DeliveriesService } from './deliveries.service';
import { DeliveryLog } from './delivery-log';
import { DeliveryRetention } from './delivery-retention';
import { DeliveryScheduler } from './delivery-scheduler';
import { EventFanOut } from './event-fan-out';
import { RetrySchedule } from './retry-schedule';
import { WebhookSender } from './webhook-sender';

@Module({
  imports: [SecretsModule, TargetsModule],
  controllers: [DeliveriesHandler],
  providers: [DeliveriesService, DeliveryLog, AttemptQueue, RetrySchedule, WebhookSender, DeliveryScheduler, EventFanOut, DeliveryRetention],
  exports: [DeliveryLog],
})
export class DeliveriesModule {}
