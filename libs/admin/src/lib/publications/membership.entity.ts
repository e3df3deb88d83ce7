import type { StaffRole } from '@gatehouse/contracts';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Publication } from './publication.entity';

/** A staff member's role in one publication (decisions A2). */
@Entity({ name: 'memberships' })
export class Membership {
  @PrimaryColumn({ name: 'staff_id', type: 'uuid' })
  staffId: string;

  @PrimaryColumn({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  role: StaffRole;

  /** The oldest membership is the publication a new session starts in. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @ManyToOne(() => Publication, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'publication_id' })
  publication: Publication;
}
