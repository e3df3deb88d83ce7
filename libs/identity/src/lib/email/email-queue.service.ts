import { Injectable } from '@nestjs/common';
import type { EmailLanguage, MessageKind } from '@gatehouse/contracts';
import { Clock, parseSecondsList } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { IdentityConfig } from '../identity.config';
import { IdentitySecretsBox } from '../signing-keys/identity-secrets-box.service';
import { EmailMessage, type EmailSecrets } from './email-message.entity';

/** Set on a transaction that queued a message, so the sender is woken once it commits. */
export const EMAIL_QUEUED = 'identityEmailQueued';

/** How long a claimed message stays with the process sending it; past that another may take it. */
const LEASE_MS = 60_000;

export interface NewEmail {
  /** The message's id when the caller has one that makes a retry harmless (a staff invitation's); a new one otherwise. */
  id?: string;
  publicationId: string;
  /** Null for staff messages. */
  customerId: string | null;
  kind: MessageKind;
  to: string;
  recipientName: string;
  language: EmailLanguage;
  secrets: EmailSecrets;
  returnUrl: string | null;
}

export interface SendOutcome {
  delivery: 'smtp' | 'mailbox';
  subject: string;
  /** Kept for the local mailbox only, redacted. */
  text: string | null;
  html: string | null;
}

/**
 * Account email waiting to be sent, in identity's own table: a message is queued in the
 * transaction that issued its token (the outbox pattern), claimed by one sender at a time
 * (SKIP LOCKED, with a lease), and retried on the configured schedule until it is sent or given up.
 */
@Injectable()
export class EmailQueue {
  private readonly retryOffsetsMs: number[];

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    config: IdentityConfig,
    private readonly secretsBox: IdentitySecretsBox,
  ) {
    this.retryOffsetsMs = [0, ...parseSecondsList(config.EMAIL_RETRY_DELAYS_SECONDS).map((seconds) => Math.round(seconds * 1000))];
  }

  /** Due at once; the sender is woken when the caller's transaction commits. A message whose id is queued already is not queued again. */
  async enqueue(manager: EntityManager, email: NewEmail): Promise<void> {
    const now = this.clock.now();
    const row: EmailMessage = {
      id: email.id ?? randomUUID(),
      publicationId: email.publicationId,
      customerId: email.customerId,
      kind: email.kind,
      toAddress: email.to,
      recipientName: email.recipientName,
      language: email.language,
      secrets: { sealed: this.secretsBox.seal(JSON.stringify(email.secrets)) },
      returnUrl: email.returnUrl,
      status: 'pending',
      delivery: null,
      attempts: 0,
      dueAt: now,
      leaseUntil: null,
      lastError: null,
      subject: null,
      textBody: null,
      htmlBody: null,
      createdAt: now,
      sentAt: null,
    };
    await manager.createQueryBuilder().insert().into(EmailMessage).values(row).orIgnore().execute();
    if (manager.queryRunner) manager.queryRunner.data[EMAIL_QUEUED] = true;
  }

  /**
   * Claims up to `limit` due messages: pending ones whose time has come, and ones whose sender
   * stopped mid-attempt (lease run out), which are tried again.
   */
  async claimDue(limit: number): Promise<EmailMessage[]> {
    const now = this.clock.now();
    const [rows]: [Array<{ id: string }>, number] = await this.dataSource.query(
      `UPDATE email_messages SET status = 'sending', lease_until = $2, attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM email_messages
         WHERE (status = 'pending' AND due_at <= $1) OR (status = 'sending' AND lease_until < $1)
         ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [now, new Date(now.getTime() + LEASE_MS), limit],
    );
    if (rows.length === 0) return [];
    return this.dataSource.getRepository(EmailMessage).find({ where: rows.map(({ id }) => ({ id })) });
  }

  /** What a claimed message's link and code carry. */
  secretsOf(message: EmailMessage): EmailSecrets {
    return message.secrets ? (JSON.parse(this.secretsBox.open(message.secrets.sealed)) as EmailSecrets) : {};
  }

  /** Sent: no message keeps its secrets; one that went to an SMTP server keeps no body either. */
  async sent(message: EmailMessage, outcome: SendOutcome): Promise<void> {
    await this.dataSource.getRepository(EmailMessage).update(
      { id: message.id, status: 'sending' },
      {
        status: 'sent',
        delivery: outcome.delivery,
        leaseUntil: null,
        lastError: null,
        subject: outcome.subject,
        textBody: outcome.text,
        htmlBody: outcome.html,
        secrets: null,
        sentAt: this.clock.now(),
      },
    );
  }

  /** Failed: due again at the next offset of the schedule after the first attempt, or given up after the last. */
  async failed(message: EmailMessage, error: string): Promise<void> {
    const offset = this.retryOffsetsMs[message.attempts];
    const givenUp = offset === undefined;
    await this.dataSource.getRepository(EmailMessage).update(
      { id: message.id, status: 'sending' },
      {
        status: givenUp ? 'failed' : 'pending',
        leaseUntil: null,
        lastError: error.slice(0, 1000),
        dueAt: givenUp ? message.dueAt : new Date(message.createdAt.getTime() + offset),
        ...(givenUp ? { secrets: null } : {}),
      },
    );
  }

  /** When the earliest waiting message is due; null when none waits. */
  async nextDueAt(): Promise<Date | null> {
    const [row] = await this.dataSource.query<{ due: Date | null }[]>(
      `SELECT min(CASE WHEN status = 'pending' THEN due_at ELSE lease_until END) AS due FROM email_messages WHERE status IN ('pending', 'sending')`,
    );
    return row?.due ?? null;
  }
}
