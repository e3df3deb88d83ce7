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

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
