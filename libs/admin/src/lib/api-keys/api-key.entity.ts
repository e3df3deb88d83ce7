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

  /** SHA-256 (hex) of the key; the key itself is shown once and never stored. */
  @Column({ name: 'key_hash', type: 'text' })
  keyHash: string;

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
