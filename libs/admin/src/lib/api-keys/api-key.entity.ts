import type { ApiKeyKind } from '@gatehouse/contracts';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Publication } from '../publications/publication.entity';

/** One key of a pair (spec 2.1): the two keys of a pair share a name but are revoked independently. */
@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  kind: ApiKeyKind;

  /** The first characters of the key, enough to recognise it in a list. */
  @Column({ type: 'text' })
  prefix: string;

  /** SHA-256 (hex) of the key, by which requests find it. */
  @Column({ name: 'key_hash', type: 'text' })
  keyHash: string;

  /** The publishable key itself, public by design (pages carry it); null for secret keys, which are never stored. */
  @Column({ name: 'publishable_key', type: 'text', nullable: true })
  publishableKey: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @ManyToOne(() => Publication, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'publication_id' })
  publication: Publication;
}
