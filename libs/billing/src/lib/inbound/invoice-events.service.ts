import { Injectable } from '@nestjs/common';
import { Events, type EventType, type InvoiceEventData, type PaymentEmailKind, type SubscriptionStatus } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import type Stripe from 'stripe';
import { ProcessorCustomersService } from '../processor/processor-customers.service';
import { fromUnix, idOf, snapshotOf } from '../subscriptions/processor-snapshot';
import { ProcessorSubscriptionSync } from '../subscriptions/processor-subscription-sync.service';
import { SubscriptionWriter } from '../subscriptions/subscription-writer.service';
import type { Subscription } from '../subscriptions/subscription.entity';
import { FreshSubscriptions } from './fresh-subscriptions.service';
import { eventTime, readTime, type InboundContext } from './inbound-context';
import { PaymentNotices } from './payment-notices.service';
import { PublicationResolver } from './publication-resolver.service';

export type InvoiceEventType = 'invoice.payment_failed' | 'invoice.payment_succeeded' | 'invoice.upcoming';

const OUTBOUND: Record<InvoiceEventType, EventType<InvoiceEventData>> = {
  'invoice.payment_succeeded': Events.InvoicePaid,
  'invoice.payment_failed': Events.InvoicePaymentFailed,
  'invoice.upcoming': Events.InvoiceUpcoming,
};

/**
 * Invoice events (spec 3.2, 6.2): a failed payment makes the subscription past_due, a successful
 * one active (a trial's free first invoice leaves it trialing); neither revives a cancelled one
 * nor overrides a more recent state. Each is announced to publishers once, whatever it changed.
 */
@Injectable()
export class InvoiceEventHandler {
  constructor(
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly resolver: PublicationResolver,
    private readonly sync: ProcessorSubscriptionSync,
    private readonly writer: SubscriptionWriter,
    private readonly fresh: FreshSubscriptions,
    private readonly processorCustomers: ProcessorCustomersService,
    private readonly notices: PaymentNotices,
  ) {}

  async handle(context: InboundContext, type: InvoiceEventType, invoice: Stripe.Invoice): Promise<string> {
    const details = invoice.parent?.subscription_details ?? null;
    const processorSubscriptionId = details?.subscription ? idOf(details.subscription) : null;
    const processorCustomerId = invoice.customer ? idOf(invoice.customer) : null;
    const publicationId = await this.resolver.resolve(context, { metadata: details?.metadata, processorSubscriptionId, processorCustomerId });
    if (!publicationId) return 'ignored: not about a publication of this service';

    const subscription = processorSubscriptionId ? await this.subscriptionAfter(context, publicationId, processorSubscriptionId, type, invoice) : null;
    if (subscription && processorCustomerId) await this.processorCustomers.learn(context.manager, publicationId, subscription.customerId, processorCustomerId);
    // A failure that left the subscription past_due (not a stale one, nor one of a cancelled subscription) tells the reader, once per invoice and stage.
    if (type === 'invoice.payment_failed' && subscription?.status === 'past_due' && processorCustomerId && invoice.id) {
      await this.notices.send(context.manager, { publicationId, customerId: subscription.customerId, processorCustomerId, subjectId: invoice.id, kind: recoveryStage(invoice) });
    }
    const customerId =
      subscription?.customerId ??
      (processorCustomerId ? (await this.processorCustomers.findByProcessorId(context.manager, publicationId, processorCustomerId))?.customerId : null) ??
      null;
    await this.outbox.add(
      context.manager,
      OUTBOUND[type],
      {
        invoiceId: invoice.id ?? null,
        subscriptionId: subscription?.id ?? null,
        customerId,
        amountDue: invoice.amount_due,
        amountPaid: invoice.amount_paid,
        currency: invoice.currency,
        ...(type === 'invoice.payment_succeeded' ? {} : { nextPaymentAttempt: invoice.next_payment_attempt ? fromUnix(invoice.next_payment_attempt).toISOString() : null }),
      },
      publicationId,
    );
    return 'applied';
  }

  /** The subscription the invoice is for, with the payment's effect applied; read from the processor when not known yet. */
  private async subscriptionAfter(
    context: InboundContext,
    publicationId: string,
    processorSubscriptionId: string,
    type: InvoiceEventType,
    invoice: Stripe.Invoice,
  ): Promise<Subscription | null> {
    const { manager } = context;
    const held = await this.sync.locked(manager, publicationId, processorSubscriptionId);
    if (type === 'invoice.upcoming') return held;
    if (!held) {
      const current = await this.fresh.fetch(publicationId, processorSubscriptionId);
      if (!current) return null;
      const readAt = readTime(context.event, this.clock.now());
      return (await this.sync.apply(manager, publicationId, snapshotOf(current), readAt)).subscription;
    }
    const happenedAt = eventTime(context.event);
    const stale = held.processorStateAt !== null && happenedAt < held.processorStateAt;
    if (!stale && held.status !== 'cancelled') {
      await this.writer.change(manager, held, { status: statusAfter(held.status, type, invoice), processorStateAt: happenedAt });
    }
    return held;
  }
}

function statusAfter(current: SubscriptionStatus, type: 'invoice.payment_failed' | 'invoice.payment_succeeded', invoice: Stripe.Invoice): SubscriptionStatus {
  if (type === 'invoice.payment_failed') return 'past_due';
  return current === 'trialing' && invoice.amount_paid === 0 ? 'trialing' : 'active';
}

/**
 * Which payment email a failed attempt sends: the first failure, a later one with a retry still
 * ahead (before the last retry), or none left (`next_payment_attempt` null: the final notice).
 */
export function recoveryStage(invoice: Pick<Stripe.Invoice, 'attempt_count' | 'next_payment_attempt'>): PaymentEmailKind {
  if (!invoice.next_payment_attempt) return 'payment_final';
  return invoice.attempt_count > 1 ? 'payment_retry' : 'payment_failed';
}
