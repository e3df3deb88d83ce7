import type { EmailKind } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A single-use credential sent by email: a link token, and for sign-in also a 6-digit code. Only hashes are stored. */
@Entity({ name: 'email_tokens' })
export class EmailToken {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'customer_id', type: 'uuid' })
  customerId: string;

  @Column({ type: 'text' })
  purpose: EmailKind;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  /** SHA-256 of the token id and the code, so equal codes of two tokens hash apart. */
  @Column({ name: 'code_hash', type: 'text', nullable: true })
  codeHash: string | null;

  @Column({ name: 'wrong_codes', type: 'integer', default: 0 })
  wrongCodes: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
