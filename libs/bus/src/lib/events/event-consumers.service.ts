import { Inject, Injectable } from '@nestjs/common';
import type { EventEnvelope, EventType } from '@gatehouse/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { EVENT_TRANSPORT, type EventSubscription, type EventTransport } from './event-transport';

export type EventConsumer<T> = (envelope: EventEnvelope<T>, manager: EntityManager) => Promise<void>;

/**
 * Turns the transport's at-least-once delivery into effectively-once handling: the handler runs in
 * the same transaction that records the event as processed by this consumer, so a redelivered
 * event is skipped, and a failed handler leaves no trace and is retried.
 */
@Injectable()
export class EventConsumers {
  private readonly subscriptions = new Set<EventSubscription>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_TRANSPORT) private readonly transport: EventTransport,
  ) {}

  /** `durable` names the consumer across restarts and replicas; callers prefix it with their service. */
  async subscribe<T>(durable: string, events: EventType<T>[], handler: EventConsumer<T>): Promise<EventSubscription> {
    const names = events.map((event) => event.name);
    const subscription = await this.transport.consume(durable, names, (envelope) =>
      this.dataSource.transaction(async (manager) => {
        if (await this.markProcessed(manager, durable, envelope.id)) await handler(envelope as EventEnvelope<T>, manager);
      }),
    );
    const tracked: EventSubscription = {
      stop: async () => {
        this.subscriptions.delete(tracked);
        await subscription.stop();
      },
    };
    this.subscriptions.add(tracked);
    return tracked;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
  }

  /** False when this consumer already processed the event. Waits for a concurrent delivery's transaction. */
  private async markProcessed(manager: EntityManager, consumer: string, eventId: string): Promise<boolean> {
    const inserted: unknown[] = await manager.query(
      'INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id',
      [consumer, eventId],
    );
    return inserted.length > 0;
  }
}
