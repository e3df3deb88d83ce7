import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@gatehouse/platform';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import { ChargeEventHandler } from './charge-events.service';
import { CheckoutEventHandler } from './checkout-events.service';
import { CustomerEventHandler } from './customer-events.service';
import type { InboundContext } from './inbound-context';
import { InvoiceEventHandler } from './invoice-events.service';
import { ENVIRONMENT_SCOPE, ProcessorEventRecord } from './processor-event.entity';
import { SubscriptionEventHandler } from './subscription-events.service';

/**
 * Processes a recorded inbound event exactly once: the record is locked and marked processed in
 * the transaction of the changes it makes, so a second delivery (of the queue, or the same event
 * handled synchronously meanwhile) finds it done; a failure leaves no trace and is retried.
 */
@Injectable()
export class ProcessorEventProcessor {
  private readonly logger = new Logger(ProcessorEventProcessor.name);

  constructor(
    private readonly clock: Clock,
    private readonly subscriptions: SubscriptionEventHandler,
    private readonly checkouts: CheckoutEventHandler,
    private readonly invoices: InvoiceEventHandler,
    private readonly customers: CustomerEventHandler,
    private readonly charges: ChargeEventHandler,
  ) {}

  async process(manager: EntityManager, scope: string, eventId: string): Promise<void> {
    const record = await manager.findOne(ProcessorEventRecord, { where: { scope, eventId }, lock: { mode: 'pessimistic_write' } });
    if (!record || record.processedAt) return;
    const event = record.payload as unknown as Stripe.Event;
    const outcome = await this.dispatch({ manager, verifiedFor: scope === ENVIRONMENT_SCOPE ? null : scope, event });
    await manager.update(ProcessorEventRecord, { scope, eventId }, { processedAt: this.clock.now(), outcome });
    this.logger.debug(`${event.type} ${event.id} (${scope}): ${outcome}`);
  }

  private dispatch(context: InboundContext): Promise<string> {
    const { event } = context;
    switch (event.type) {
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
      case 'customer.subscription.paused':
      case 'customer.subscription.resumed':
        return this.subscriptions.handle(context, event.data.object);
      case 'checkout.session.completed':
        return this.checkouts.handle(context, event.data.object);
      case 'invoice.payment_failed':
      case 'invoice.payment_succeeded':
      case 'invoice.upcoming':
        return this.invoices.handle(context, event.type, event.data.object);
      case 'customer.created':
      case 'customer.updated':
        return this.customers.handle(context, event.data.object);
      case 'customer.source.expiring':
        return this.customers.cardExpiring(context, event.data.object);
      case 'charge.refunded':
        return this.charges.refunded(context, event.data.object);
      default:
        return Promise.resolve(`ignored: ${event.type} is not handled`);
    }
  }
}
