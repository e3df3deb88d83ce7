import { Column, Entity, PrimaryColumn } from 'typeorm';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event for one registration: the exact body every attempt sends, and how it ended. */
@Entity({ name: 'deliveries' })
export class Delivery {
  /** `X-Service-Delivery` and `webhook-id`. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'webhook_id', type: 'uuid' })
  webhookId: string;

  /** The event envelope's id, so an event is delivered once per registration; null for test events. */
  @Column({ name: 'event_id', type: 'uuid', nullable: true })
  eventId: string | null;

  @Column({ type: 'text' })
  event: string;

  /** The JSON `{event, data, timestamp}` as sent, byte for byte, on every attempt. */
  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'text' })
  status: DeliveryStatus;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
