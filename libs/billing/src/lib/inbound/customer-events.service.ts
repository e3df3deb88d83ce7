import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { ProcessorCustomersService } from '../processor/processor-customers.service';
import type { InboundContext } from './inbound-context';
import { PaymentNotices } from './payment-notices.service';
import { PublicationResolver } from './publication-resolver.service';
import { isUuid } from '@gatehouse/platform';

/**
 * `customer.created|updated` (spec 6.1): what the processor holds about a customer's account, kept
 * on record; `customer.source.expiring`: the reminder that the card on file expires soon.
 */
@Injectable()
export class CustomerEventHandler {
  constructor(
    private readonly resolver: PublicationResolver,
    private readonly processorCustomers: ProcessorCustomersService,
    private readonly notices: PaymentNotices,
  ) {}

  async handle(context: InboundContext, customer: Stripe.Customer): Promise<string> {
    const publicationId = await this.resolver.resolve(context, { metadata: customer.metadata, processorCustomerId: customer.id });
    if (!publicationId) return 'ignored: not about a publication of this service';
    const known = await this.processorCustomers.findByProcessorId(context.manager, publicationId, customer.id);
    const customerId = known?.customerId ?? customer.metadata?.['customerId'];
    if (!isUuid(customerId)) return 'ignored: not the account of a customer of this service';
    await this.processorCustomers.remember(context.manager, publicationId, customerId, { id: customer.id, email: customer.email ?? null, name: customer.name ?? null });
    return 'applied';
  }

  /** One reminder per card and expiry, to a customer on record with a live processor subscription. */
  async cardExpiring(context: InboundContext, source: Stripe.CustomerSource): Promise<string> {
    const card = source as Partial<Stripe.Card>;
    const processorCustomerId = typeof card.customer === 'string' ? card.customer : (card.customer?.id ?? null);
    if (!processorCustomerId || !card.id) return 'ignored: a source of no customer';
    const publicationId = await this.resolver.resolve(context, { metadata: card.metadata ?? undefined, processorCustomerId });
    if (!publicationId) return 'ignored: not about a publication of this service';
    const known = await this.processorCustomers.findByProcessorId(context.manager, publicationId, processorCustomerId);
    if (!known) return 'ignored: not the account of a customer of this service';
    const [live] = await context.manager.query(
      `SELECT 1 FROM subscriptions WHERE publication_id = $1 AND customer_id = $2 AND source = 'processor' AND status <> 'cancelled' LIMIT 1`,
      [publicationId, known.customerId],
    );
    if (!live) return 'ignored: no live subscription to keep paying';
    const subjectId = `${card.id}:${card.exp_year ?? ''}-${card.exp_month ?? ''}`;
    const sent = await this.notices.send(context.manager, { publicationId, customerId: known.customerId, processorCustomerId, subjectId, kind: 'card_expiring' });
    return sent ? 'applied' : 'ignored: reminded already';
  }
}
