import type { EmailKind } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One request for account email to an address, whether or not a customer has it; counted by the throttle. */
@Entity({ name: 'email_requests' })
export class EmailRequest {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  kind: EmailKind;

  @Column({ name: 'requested_at', type: 'timestamptz' })
  requestedAt: Date;
}
