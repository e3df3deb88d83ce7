import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { GiftPayments } from '../gifts/gift-payments.service';
import { idOf } from '../subscriptions/processor-snapshot';
import type { InboundContext } from './inbound-context';
import { PublicationResolver } from './publication-resolver.service';

/** `charge.refunded`: a one-time payment given back, which voids the gift it bought (before redemption). */
@Injectable()
export class ChargeEventHandler {
  constructor(
    private readonly resolver: PublicationResolver,
    private readonly gifts: GiftPayments,
  ) {}

  async refunded(context: InboundContext, charge: Stripe.Charge): Promise<string> {
    const publicationId = await this.resolver.resolve(context, { metadata: charge.metadata, processorCustomerId: charge.customer ? idOf(charge.customer) : null });
    if (!publicationId) return 'ignored: not about a publication of this service';
    return this.gifts.refunded(context.manager, publicationId, charge);
  }
}
