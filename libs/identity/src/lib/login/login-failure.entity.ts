import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One login attempt for an email that did not (or not yet) succeed; counted by the login throttle. */
@Entity({ name: 'login_failures' })
export class LoginFailure {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  /** Normalised, whether or not a customer has it. */
  @Column({ type: 'text' })
  email: string;

  @Column({ name: 'failed_at', type: 'timestamptz' })
  failedAt: Date;
}
