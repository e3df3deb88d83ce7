import { Injectable } from '@nestjs/common';
import { WEBHOOK_TEST_EVENT, type DeliveryAttemptView, type EventEnvelope, type WebhookTestEventData } from '@gatehouse/contracts';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { ArrayContains, DataSource, type EntityManager } from 'typeorm';
import { webhookOf } from '../registrations/webhook-lookup';
import { Webhook } from '../registrations/webhook.entity';
import { AttemptQueue } from './attempt-queue.service';
import type { DeliveryAttempt } from './delivery-attempt.entity';
import { attemptView } from './delivery-log.service';
import { Delivery } from './delivery.entity';

interface Payload {
  event: string;
  data: unknown;
  /** ISO 8601 UTC: when the event happened. */
  timestamp: string;
}

/** Turns events into deliveries, each with its first attempt scheduled in the same transaction. */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly queue: AttemptQueue,
  ) {}

  /** One delivery for each registration of the event's publication that lists the event (spec 6.2). */
  async fanOut(manager: EntityManager, envelope: EventEnvelope): Promise<void> {
    if (!envelope.publicationId) return;
    const webhooks = await manager.find(Webhook, {
      select: { id: true },
      where: { publicationId: envelope.publicationId, events: ArrayContains([envelope.name]) },
    });
    const payload = { event: envelope.name, data: envelope.data, timestamp: envelope.occurredAt };
    for (const webhook of webhooks) await this.deliver(manager, webhook.id, payload, envelope.id);
  }

  /** A `webhook.test` event for this registration only, whatever events it lists. */
  sendTest(publicationId: string, webhookId: string): Promise<DeliveryAttemptView> {
    return this.dataSource.transaction(async (manager) => {
      await webhookOf(manager, publicationId, webhookId);
      const data: WebhookTestEventData = { webhookId, message: 'A test event sent from the dashboard: no action is needed.' };
      const attempt = await this.deliver(manager, webhookId, { event: WEBHOOK_TEST_EVENT, data, timestamp: this.clock.now().toISOString() }, null);
      return attemptView(attempt, WEBHOOK_TEST_EVENT);
    });
  }

  /** A new series of attempts for a delivery that succeeded or failed, with the same id and body. */
  redeliver(publicationId: string, webhookId: string, deliveryId: string): Promise<DeliveryAttemptView> {
    return this.dataSource.transaction(async (manager) => {
      await webhookOf(manager, publicationId, webhookId);
      // Locked, so two redeliveries at once cannot both start a series.
      const delivery = isUuid(deliveryId)
        ? await manager.findOne(Delivery, { where: { id: deliveryId, webhookId }, lock: { mode: 'pessimistic_write' } })
        : null;
      if (!delivery) throw new AppError('not_found', 'No such delivery.');
      if (delivery.status === 'pending') throw new AppError('conflict', 'This delivery is still being attempted; redeliver it once it succeeded or failed.');
      const [{ last }] = await manager.query<{ last: number }[]>('SELECT max(number) AS last FROM delivery_attempts WHERE delivery_id = $1', [delivery.id]);
      await manager.update(Delivery, { id: delivery.id }, { status: 'pending' });
      return attemptView(await this.queue.startSeries(manager, delivery, (last ?? 0) + 1), delivery.event);
    });
  }

  private async deliver(manager: EntityManager, webhookId: string, payload: Payload, eventId: string | null): Promise<DeliveryAttempt> {
    const delivery = manager.create(Delivery, {
      id: randomUUID(),
      webhookId,
      eventId,
      event: payload.event,
      body: JSON.stringify(payload),
      status: 'pending',
      createdAt: this.clock.now(),
    });
    await manager.insert(Delivery, delivery);
    return this.queue.startSeries(manager, delivery, 1);
  }
}
