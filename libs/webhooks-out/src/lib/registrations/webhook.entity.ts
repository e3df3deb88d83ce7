import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A publisher's endpoint and the events it wants (spec 2.8). */
@Entity({ name: 'webhooks' })
export class Webhook {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', array: true })
  events: string[];

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** The signing secret, encrypted (SecretBox); it is used to sign every delivery, so it cannot be hashed. */
  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
