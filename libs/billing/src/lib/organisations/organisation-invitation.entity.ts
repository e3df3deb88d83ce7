import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An open invitation to a seat; deleted when accepted or withdrawn. Only the token's hash is kept. */
@Entity({ name: 'organisation_invitations' })
export class OrganisationInvitation {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
