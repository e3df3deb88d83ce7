import type { ExperimentStatus, ExperimentVariant } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Variants of one paywall shown to shares of its visitors (decisions H4). */
@Entity({ name: 'experiments' })
export class Experiment {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'paywall_id', type: 'uuid' })
  paywallId: string;

  @Column({ type: 'text' })
  name: string;

  /** draft → running → stopped; at most one running experiment per paywall. */
  @Column({ type: 'text' })
  status: ExperimentStatus;

  @Column({ type: 'jsonb' })
  variants: ExperimentVariant[];

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'stopped_at', type: 'timestamptz', nullable: true })
  stoppedAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
