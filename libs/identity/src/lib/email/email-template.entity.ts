import type { EmailLanguage, TemplateKind } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Copy staff wrote for one kind of message in one language; the built-in copy applies where none exists. */
@Entity({ name: 'email_templates' })
export class EmailTemplate {
  @PrimaryColumn({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @PrimaryColumn({ type: 'text' })
  kind: TemplateKind;

  @PrimaryColumn({ type: 'text' })
  language: EmailLanguage;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'text' })
  action: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
