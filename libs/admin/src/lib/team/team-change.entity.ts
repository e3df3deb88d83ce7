import type { StaffRole, TeamChangeAction } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Who changed a publication's team, and how: written in the same transaction as the change. */
@Entity({ name: 'team_changes' })
export class TeamChange {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  action: TeamChangeAction;

  @Column({ name: 'actor_email', type: 'text' })
  actorEmail: string;

  @Column({ name: 'subject_email', type: 'text' })
  subjectEmail: string;

  @Column({ type: 'text', nullable: true })
  role: StaffRole | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
