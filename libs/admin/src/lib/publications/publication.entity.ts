import { Column, Entity, PrimaryColumn } from 'typeorm';

export interface DomainProof {
  token: string;
  /** ISO time; null until the token was found. */
  verifiedAt: string | null;
}

/** The tenant (decisions A1): everything a publisher owns belongs to exactly one publication. */
@Entity({ name: 'publications' })
export class Publication {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  /** Lower-case host names; `*.example.com` matches any subdomain. */
  @Column({ type: 'text', array: true })
  domains: string[];

  /** Whether readers may create their own accounts; existing readers sign in either way. */
  @Column({ name: 'self_registration', type: 'boolean', default: true })
  selfRegistration: boolean;

  /** Per claimed domain: the token its owner publishes to prove it, and when it was found. */
  @Column({ name: 'domain_proofs', type: 'jsonb', default: {} })
  domainProofs: Record<string, DomainProof>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
