import type { CancellationReason, SaveKind } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What a reader answered in the cancellation flow: a cancellation with its reason (`accepted`
 * false; `saveKind` the offer they turned down, if one was shown) or a save offer accepted. At most
 * one of each per subscription: the stats count readers, not clicks.
 */
@Entity({ name: 'cancellation_answers' })
export class CancellationAnswer {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'subscription_id', type: 'uuid' })
  subscriptionId: string;

  @Column({ type: 'text' })
  reason: CancellationReason;

  @Column({ name: 'save_kind', type: 'text', nullable: true })
  saveKind: SaveKind | null;

  @Column({ type: 'boolean' })
  accepted: boolean;

  @Column({ name: 'answered_at', type: 'timestamptz' })
  answeredAt: Date;
}
