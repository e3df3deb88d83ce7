import type { EmailLanguage } from '@gatehouse/contracts';
import { Column, DeleteDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A reader registered with one publication; the same email in another publication is another customer. */
@Entity({ name: 'customers' })
export class Customer {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  /** Trimmed and lower-cased; unique within the publication. */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  name: string;

  /** Null for a customer created by staff without a password: it can be granted access but cannot log in. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash: string | null;

  /** When the customer last proved the address theirs; cleared when the address changes. */
  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;

  /** The language account email is written in (EMAIL_LANGUAGES), from the locale given at registration. */
  @Column({ type: 'text', default: 'en' })
  language: EmailLanguage;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
