import { Controller } from '@nestjs/common';
import { Handles } from '@gatehouse/bus';
import { WebhooksOutRequests, type DeliveryAttemptView, type RequestOf } from '@gatehouse/contracts';
import { DeliveriesService } from './deliveries.service';

const { RedeliverDelivery, SendTestEvent } = WebhooksOutRequests;

@Controller()
export class DeliveriesHandler {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Handles(RedeliverDelivery)
  redeliver({ publicationId, webhookId, deliveryId }: RequestOf<typeof RedeliverDelivery>): Promise<DeliveryAttemptView> {
    return this.deliveries.redeliver(publicationId, webhookId, deliveryId);
  }

  @Handles(SendTestEvent)
  sendTest({ publicationId, webhookId }: RequestOf<typeof SendTestEvent>): Promise<DeliveryAttemptView> {
    return this.deliveries.sendTest(publicationId, webhookId);
  }
}
