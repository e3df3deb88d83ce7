import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The chain of refresh tokens descending from one login or registration; revoked as a whole on logout or reuse. */
@Entity({ name: 'refresh_token_families' })
export class RefreshTokenFamily {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'customer_id', type: 'uuid' })
  customerId: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
