import type { CancellationReason, SaveKind } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A publication's setting for one cancellation reason; a publication without rows has the defaults (every reason shown, no save offers). */
@Entity({ name: 'cancellation_reasons' })
export class CancellationReasonRow {
  @PrimaryColumn({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @PrimaryColumn({ type: 'text' })
  reason: CancellationReason;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'text', nullable: true })
  label: string | null;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ name: 'save_kind', type: 'text', nullable: true })
  saveKind: SaveKind | null;

  @Column({ name: 'save_offer_id', type: 'uuid', nullable: true })
  saveOfferId: string | null;

  @Column({ name: 'save_pause_months', type: 'integer', nullable: true })
  savePauseMonths: number | null;

  @Column({ name: 'save_price_id', type: 'uuid', nullable: true })
  savePriceId: string | null;
}
