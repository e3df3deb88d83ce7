import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A signed-in staff member (decisions A4); the cookie carries a token of which only the hash is kept. */
@Entity({ name: 'sessions' })
export class Session {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'staff_id', type: 'uuid' })
  staffId: string;

  /** SHA-256 (hex) of the cookie token. */
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  /** Every admin request acts on this publication. */
  @Column({ name: 'current_publication_id', type: 'uuid' })
  currentPublicationId: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt: Date;

  /** The absolute end: creation plus the maximum lifetime, however active the session is. */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
