import type { MembershipOrigin } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A customer holding one of an organisation's seats. */
@Entity({ name: 'organisation_members' })
export class OrganisationMember {
  @PrimaryColumn({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @PrimaryColumn({ name: 'customer_id', type: 'uuid' })
  customerId: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  /** The address the seat was taken with: the invitation's, or the verified one at a domain. */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  via: MembershipOrigin;

  @Column({ name: 'joined_at', type: 'timestamptz' })
  joinedAt: Date;
}
