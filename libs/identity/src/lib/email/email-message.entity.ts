import type { EmailLanguage, EmailMessageStatus, GiftEmailValues, MessageKind } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What a message's link and code carry. */
export interface EmailSecrets {
  token?: string;
  code?: string;
  /** A payment email's whole link (the processor's billing portal session), itself a credential. */
  link?: string;
  /** What a gift email says: who gave it, and their message, which is theirs and the recipient's alone. */
  values?: GiftEmailValues;
  /** An organisation invitation's organisation, named in its copy; kept no longer than its token. */
  organisation?: string;
}

/** The message's EmailSecrets as JSON, sealed with SIGNING_KEYS_KEY; kept only until the message is sent or given up. */
export interface SealedEmailSecrets {
  sealed: string;
}

/**
 * One account email, queued in the transaction that made its token, so it is sent if and only if
 * that commits; the sender claims due rows, and a failed attempt is retried later (docs/email.md).
 */
@Entity({ name: 'email_messages' })
export class EmailMessage {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'customer_id', type: 'uuid', nullable: true })
  customerId: string | null;

  @Column({ type: 'text' })
  kind: MessageKind;

  @Column({ name: 'to_address', type: 'text' })
  toAddress: string;

  @Column({ name: 'recipient_name', type: 'text' })
  recipientName: string;

  @Column({ type: 'text' })
  language: EmailLanguage;

  @Column({ type: 'jsonb', nullable: true })
  secrets: SealedEmailSecrets | null;

  /** The page the link leads to; the publication's first domain when null. */
  @Column({ name: 'return_url', type: 'text', nullable: true })
  returnUrl: string | null;

  @Column({ type: 'text' })
  status: EmailMessageStatus;

  @Column({ type: 'text', nullable: true })
  delivery: 'smtp' | 'mailbox' | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt: Date;

  /** While `sending`: until when the claiming process holds it; past that it is due again. */
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'text', nullable: true })
  subject: string | null;

  /** Kept only for the local mailbox, with its code and link redacted: a message handed to an SMTP server keeps its subject alone (redacted too). */
  @Column({ name: 'text_body', type: 'text', nullable: true })
  textBody: string | null;

  @Column({ name: 'html_body', type: 'text', nullable: true })
  htmlBody: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt: Date | null;
}
