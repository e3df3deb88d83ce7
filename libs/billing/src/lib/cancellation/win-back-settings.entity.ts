import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A publication's win-back setting; none: off. */
@Entity({ name: 'win_back_settings' })
export class WinBackSettings {
  @PrimaryColumn({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ type: 'integer' })
  days: number;

  @Column({ name: 'offer_id', type: 'uuid', nullable: true })
  offerId: string | null;

  /** When it was last turned on: a cancellation whose day of win-back came before it is not written to. */
  @Column({ name: 'enabled_at', type: 'timestamptz', nullable: true })
  enabledAt: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
