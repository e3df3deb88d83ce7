import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { ProcessorCustomersService } from '../processor/processor-customers.service';
import type { InboundContext } from './inbound-context';
import { PublicationResolver } from './publication-resolver.service';
import { isUuid } from '@gatehouse/platform';

/** `customer.created|updated` (spec 6.1): what the processor holds about a customer's account, kept on record. */
@Injectable()
export class CustomerEventHandler {
  constructor(
    private readonly resolver: PublicationResolver,
    private readonly processorCustomers: ProcessorCustomersService,
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
}
