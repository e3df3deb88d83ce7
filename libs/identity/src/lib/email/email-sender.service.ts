import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  AdminRequests,
  BrandingRequests,
  EMAIL_VERIFICATION_TTL_MINUTES,
  LOGIN_CODE_TTL_MINUTES,
  ORGANISATION_INVITATION_TTL_DAYS,
  PASSWORD_RESET_TTL_MINUTES,
  STAFF_INVITATION_TTL_MINUTES,
  type EmailCopy,
  type MessageKind,
  type TemplateKind,
} from '@gatehouse/contracts';
import { BusClient, DueWorkScheduler } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import type { EmailMessage } from './email-message.entity';
import { EMAIL_QUEUED, EmailQueue } from './email-queue.service';
import { redactedEmail, renderEmail, type EmailContext, type RenderedEmail } from './email-rendering';
import { EmailTemplatesService } from './email-templates.service';
import { ORGANISATION_INVITATION_COPY, STAFF_INVITATION_COPY } from './default-copy';
import { EmailTransport } from './email-transport.service';

const VALID_MINUTES: Record<MessageKind, number> = {
  password_reset: PASSWORD_RESET_TTL_MINUTES,
  email_verification: EMAIL_VERIFICATION_TTL_MINUTES,
  login_code: LOGIN_CODE_TTL_MINUTES,
  staff_invitation: STAFF_INVITATION_TTL_MINUTES,
  organisation_invitation: ORGANISATION_INVITATION_TTL_DAYS * 24 * 60,
  // Payment email carries no credential of ours; the processor's portal link has its own life.
  payment_failed: 0,
  payment_retry: 0,
  payment_final: 0,
  card_expiring: 0,
  win_back: 0,
  // A gift's code lasts until it is redeemed or voided; the reminder carries no credential.
  gift_received: 0,
  gift_ending: 0,
};

/** The messages whose copy comes from Gatehouse, not from the publication's templates. */
const FIXED_COPY: Partial<Record<MessageKind, EmailCopy>> = { staff_invitation: STAFF_INVITATION_COPY, organisation_invitation: ORGANISATION_INVITATION_COPY };

/**
 * Sends queued account email as soon as the transaction that queued it commits. Each message is
 * rendered in its publication's branding (fetched from admin and branding over the bus) and copy,
 * then handed to the transport; a failure, a service that does not answer included, leaves it
 * for the next attempt of the schedule.
 */
@Injectable()
export class EmailSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmailSender.name);
  private readonly scheduler: DueWorkScheduler<EmailMessage>;

  constructor(
    dataSource: DataSource,
    clock: Clock,
    private readonly queue: EmailQueue,
    private readonly templates: EmailTemplatesService,
    private readonly transport: EmailTransport,
    private readonly bus: BusClient,
  ) {
    this.scheduler = new DueWorkScheduler(
      dataSource,
      clock,
      { claimDue: (limit) => queue.claimDue(limit), perform: (message) => this.send(message), nextDueAt: () => queue.nextDueAt() },
      // A message still being sent at shutdown is sent again once its lease runs out.
      { name: 'account email', addedFlag: EMAIL_QUEUED, pollIntervalMs: 1_000, maxInFlight: 5, stopGraceMs: 3_000 },
    );
  }

  onApplicationBootstrap(): void {
    this.scheduler.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.scheduler.stop();
  }

  private async send(message: EmailMessage): Promise<void> {
    let rendered: RenderedEmail;
    let kept: RenderedEmail;
    try {
      const secrets = this.queue.secretsOf(message);
      const base = await this.contextOf(message);
      const context = secrets.values ? { ...base, values: { ...base.values, ...secrets.values } } : base;
      const token = secrets.token ?? secrets.link;
      const named = { ...context, values: { ...context.values, organisation: secrets.organisation } };
      rendered = renderEmail({ ...named, values: { ...named.values, code: secrets.code }, link: token ? { returnUrl: message.returnUrl, token } : null });
      kept = redactedEmail(named, Boolean(secrets.code), token ? message.returnUrl : undefined);
      await this.transport.send({ ...rendered, messageId: message.id, to: message.toAddress, fromName: context.publication.name });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn(`Attempt ${message.attempts} to send ${message.kind} message ${message.id} failed: ${reason}`);
      await this.queue.failed(message, reason);
      return;
    }
    const inMailbox = this.transport.delivery === 'mailbox';
    await this.queue.sent(message, {
      delivery: this.transport.delivery,
      subject: kept.subject,
      text: inMailbox ? kept.text : null,
      html: inMailbox ? kept.html : null,
    });
  }

  /** Everything a message is rendered from but its code and link. */
  private async contextOf(message: EmailMessage): Promise<EmailContext> {
    const { publicationId, kind, language } = message;
    const [publication, branding, copy] = await Promise.all([
      this.bus.request(AdminRequests.GetPublication, { publicationId }),
      this.bus.request(BrandingRequests.Get, { publicationId }).then(({ configuration }) => configuration),
      FIXED_COPY[kind] ?? this.templates.copyFor(publicationId, kind as TemplateKind, language),
    ]);
    return { kind, copy, publication, branding, values: { name: message.recipientName, minutes: VALID_MINUTES[kind] }, link: null };
  }
}
