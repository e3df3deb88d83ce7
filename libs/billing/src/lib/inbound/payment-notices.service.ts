import { Injectable, Logger } from '@nestjs/common';
import { AdminRequests, PaymentEmailRequests, type PaymentEmailKind } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { derivedUuid } from '../shared/derived-id';
import { homePageOf } from '../shared/home-page';
import { PaymentNotice } from './payment-notice.entity';

export interface NoticeSubject {
  publicationId: string;
  customerId: string;
  processorCustomerId: string;
  /** What the notice is about: the processor's invoice id, or a card's id and expiry. */
  subjectId: string;
  kind: PaymentEmailKind;
}

/**
 * Payment email for failed-payment recovery (docs/billing.md#failed-payment-recovery). Each
 * (subject, kind) is asked of identity once ever: the record is written in the transaction of the
 * processor event, so a redelivered event or one processed again after a restart finds it. The
 * request to identity comes before the commit and carries an id derived from the record's key, so
 * when the transaction fails after identity queued the message, the retried event queues nothing
 * more; when identity does not answer, the event fails and the processor-event queue retries it.
 */
@Injectable()
export class PaymentNotices {
  private readonly logger = new Logger(PaymentNotices.name);

  constructor(
    private readonly clock: Clock,
    private readonly bus: BusClient,
    private readonly settings: ProcessorSettingsService,
  ) {}

  /** True when the notice is asked for now; false when it was before. */
  async send(manager: EntityManager, subject: NoticeSubject): Promise<boolean> {
    const { publicationId, customerId, subjectId, kind } = subject;
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(PaymentNotice)
      .values({ publicationId, subjectId, kind, customerId, createdAt: this.clock.now() })
      .orIgnore()
      .returning(['kind'])
      .execute();
    if (inserted.raw.length === 0) return false;
    const link = await this.portalLink(publicationId, subject.processorCustomerId);
    await this.bus.request(PaymentEmailRequests.SendPaymentNotice, { publicationId, customerId, noticeId: noticeId(publicationId, subjectId, kind), kind, link });
    return true;
  }

  /**
   * A billing-portal session of the customer's processor account, back to the publication's site;
   * none without processor settings, or when the processor refuses one (a refusal will not change
   * with a retry, and the reader should hear of the failed payment anyway). A processor that fails
   * fails the event, which is retried.
   */
  private async portalLink(publicationId: string, processorCustomerId: string): Promise<string | null> {
    const client = await this.settings.client(publicationId);
    if (!client) return null;
    const home = homePageOf(await this.bus.request(AdminRequests.GetPublication, { publicationId }));
    try {
      const session = await client.billingPortal.sessions.create({ customer: processorCustomerId, ...(home ? { return_url: home } : {}) });
      return session.url;
    } catch (err) {
      const refused = err instanceof Stripe.errors.StripeError && err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500;
      if (!refused) throw err;
      this.logger.warn(`The processor refused a billing-portal session for a payment email of publication ${publicationId}: ${err.message}`);
      return null;
    }
  }
}

/** The email's id in identity's queue: the same for the same notice, so a repeated request queues nothing twice. */
export function noticeId(publicationId: string, subjectId: string, kind: PaymentEmailKind): string {
  return derivedUuid(`payment-notice:${publicationId}:${subjectId}:${kind}`);
}
