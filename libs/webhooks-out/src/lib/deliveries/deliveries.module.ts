import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module';
import { TargetsModule } from '../targets/targets.module';
import { AttemptQueue } from './attempt-queue.service';
import { DeliveriesHandler } from './deliveries.handler';
import { DeliveriesService } from './deliveries.service';
import { DeliveryLog } from './delivery-log.service';
import { DeliveryRetention } from './delivery-retention.service';
import { DeliveryScheduler } from './delivery-scheduler.service';
import { EventFanOut } from './event-fan-out.service';
import { RetrySchedule } from './retry-schedule.service';
import { WebhookSender } from './webhook-sender.service';

@Module({
  imports: [SecretsModule, TargetsModule],
  controllers: [DeliveriesHandler],
  providers: [DeliveriesService, DeliveryLog, AttemptQueue, RetrySchedule, WebhookSender, DeliveryScheduler, EventFanOut, DeliveryRetention],
  exports: [DeliveryLog],
})
export class DeliveriesModule {}
