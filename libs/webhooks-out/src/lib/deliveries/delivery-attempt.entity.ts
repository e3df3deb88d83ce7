import { Column, Entity, PrimaryColumn } from 'typeorm';

/** `sending`: claimed by one replica, which holds it until `leaseUntil`. */
export type AttemptStatus = 'pending' | 'sending' | 'succeeded' | 'failed';

/** One attempt of a delivery: a row in the retry schedule before it is made, a log entry after. */
@Entity({ name: 'delivery_attempts' })
export class DeliveryAttempt {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  @Column({ name: 'webhook_id', type: 'uuid' })
  webhookId: string;

  /** 1-based within the delivery; a redelivery continues the count. */
  @Column({ type: 'integer' })
  number: number;

  /** 0 for the first attempt of a series (the original one or a redelivery), then 1, 2... */
  @Column({ name: 'series_position', type: 'integer' })
  seriesPosition: number;

  @Column({ type: 'text' })
  status: AttemptStatus;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt: Date;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'attempted_at', type: 'timestamptz', nullable: true })
  attemptedAt: Date | null;

  @Column({ name: 'response_code', type: 'integer', nullable: true })
  responseCode: number | null;

  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
