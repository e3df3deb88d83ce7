import type { PausedAccess } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A publication's subscription settings; a publication without a row has the defaults. */
@Entity({ name: 'subscription_settings' })
export class SubscriptionSettings {
  @PrimaryColumn({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'paused_access', type: 'text' })
  pausedAccess: PausedAccess;

  /** Null: the service's PAST_DUE_GRACE_DAYS. */
  @Column({ name: 'past_due_grace_days', type: 'integer', nullable: true })
  pastDueGraceDays: number | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
