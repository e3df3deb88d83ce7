import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An inbound processor event, verified and recorded once per scope and event id (decisions F3). */
@Entity({ name: 'processor_events' })
export class ProcessorEventRecord {
  /** The publication whose webhook secret verified it, or `environment` for PROCESSOR_WEBHOOK_SECRET. */
  @PrimaryColumn({ type: 'text' })
  scope: string;

  @PrimaryColumn({ name: 'event_id', type: 'text' })
  eventId: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;

  @Column({ name: 'processed_at', type: 'timestamptz', nullable: true })
  processedAt: Date | null;

  /** What processing did: `applied`, or why nothing was (stale, unknown customer, ...). */
  @Column({ type: 'text', nullable: true })
  outcome: string | null;
}

/** The scope of events verified with PROCESSOR_WEBHOOK_SECRET rather than a publication's own secret. */
export const ENVIRONMENT_SCOPE = 'environment';
