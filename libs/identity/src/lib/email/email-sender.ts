import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  AdminRequests,
  BrandingRequests,
  EMAIL_VERIFICATION_TTL_MINUTES,
  LOGIN_CODE_TTL_MINUTES,
  PASSWORD_RESET_TTL_MINUTES,
  type EmailKind,
} from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import { DataSource, type EntitySubscriberInterface, type TransactionCommitEvent } from 'typeorm';
import type { EmailMessage } from './email-message.entity';
import { EMAIL_QUEUED, EmailQueue } from './email-queue';
import { renderEmail, type RenderedEmail } from './email-rendering';
import { EmailTemplatesService } from './email-templates.service';
import { EmailTransport } from './email-transport';

/** The safety net: messages queued by another replica, or whose wake-up was missed, are found this often. */
const POLL_INTERVAL_MS = 1_000;
const MAX_IN_FLIGHT = 5;
/** How long shutdown waits for messages being sent; one left claimed is tried again once its lease runs out. */
const SHUTDOWN_GRACE_MS = 3_000;

const VALID_MINUTES: Record<EmailKind, number> = {
  password_reset: PASSWORD_RESET_TTL_MINUTES,
  email_verification: EMAIL_VERIFICATION_TTL_MINUTES,
  login_code: LOGIN_CODE_TTL_MINUTES,
};

/**
 * Sends queued account email: woken when a transaction that queued a message commits, at the next
 * due time, and by polling. Each message is rendered in its publication's branding (fetched from
 * admin and branding over the bus) and copy, then handed to the transport; a failure, including a
 * service that does not answer, leaves it for the next attempt of the schedule.
 */
@Injectable()
export class EmailSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmailSender.name);
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private round: Promise<void> | null = null;
  private roundRequested = false;
  private wakeTimer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly queue: EmailQueue,
    private readonly templates: EmailTemplatesService,
    private readonly transport: EmailTransport,
    private readonly bus: BusClient,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.dataSource.subscribers.push(this.wakeOnCommit());
    this.wake();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    clearTimeout(this.wakeTimer);
    await this.round;
    await Promise.race([Promise.all(this.inFlight), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
  }

  wake(): void {
    if (!this.running) return;
    if (this.round) {
      this.roundRequested = true;
      return;
    }
    clearTimeout(this.wakeTimer);
    this.round = this.sendDue().finally(() => {
      this.round = null;
      if (this.roundRequested) {
        this.roundRequested = false;
        this.wake();
      }
    });
  }

  private async sendDue(): Promise<void> {
    let nextDue: Date | null = null;
    try {
      const capacity = MAX_IN_FLIGHT - this.inFlight.size;
      if (capacity > 0) for (const message of await this.queue.claimDue(capacity)) this.track(this.send(message));
      nextDue = await this.queue.nextDueAt();
      if (this.failing) this.logger.log('Sending account email again');
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.logger.error(`Looking for account email to send failed, retrying: ${describe(err)}`);
      this.failing = true;
    }
    if (!this.running) return;
    const untilDue = nextDue ? Math.max(nextDue.getTime() - this.clock.now().getTime(), 0) : POLL_INTERVAL_MS;
    this.wakeTimer = setTimeout(() => this.wake(), Math.min(untilDue, POLL_INTERVAL_MS));
  }

  private track(sending: Promise<void>): void {
    this.inFlight.add(sending);
    void sending.finally(() => {
      this.inFlight.delete(sending);
      this.wake();
    });
  }

  private async send(message: EmailMessage): Promise<void> {
    try {
      let rendered: RenderedEmail;
      let fromName: string;
      try {
        ({ rendered, fromName } = await this.render(message));
        await this.transport.send({ ...rendered, messageId: message.id, to: message.toAddress, fromName });
      } catch (err) {
        this.logger.warn(`Attempt ${message.attempts} to send ${message.kind} message ${message.id} failed: ${describe(err)}`);
        await this.queue.failed(message, describe(err));
        return;
      }
      const kept = this.transport.delivery === 'mailbox';
      await this.queue.sent(message, {
        delivery: this.transport.delivery,
        subject: rendered.subject,
        text: kept ? rendered.text : null,
        html: kept ? rendered.html : null,
      });
    } catch (err) {
      // Left claimed: once its lease runs out it is tried again.
      this.logger.error(`Recording the ${message.kind} message ${message.id} failed: ${describe(err)}`);
    }
  }

  private async render(message: EmailMessage): Promise<{ rendered: RenderedEmail; fromName: string }> {
    const { publicationId, kind, language, secrets } = message;
    const [publication, branding, copy] = await Promise.all([
      this.bus.request(AdminRequests.GetPublication, { publicationId }),
      this.bus.request(BrandingRequests.Get, { publicationId }),
      this.templates.copyFor(publicationId, kind, language),
    ]);
    const rendered = renderEmail({
      kind,
      copy,
      publication,
      branding,
      values: { name: message.recipientName, code: secrets?.code, minutes: VALID_MINUTES[kind] },
      link: secrets?.token ? { returnUrl: message.returnUrl, token: secrets.token } : null,
    });
    return { rendered, fromName: publication.name };
  }

  private wakeOnCommit(): EntitySubscriberInterface {
    return {
      afterTransactionCommit: ({ queryRunner }: TransactionCommitEvent) => {
        if (!queryRunner.data[EMAIL_QUEUED]) return;
        delete queryRunner.data[EMAIL_QUEUED];
        this.wake();
      },
    };
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
