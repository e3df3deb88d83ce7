import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';

/** Asks the processor for a subscription's current state: what to believe when events leave it in doubt. */
@Injectable()
export class FreshSubscriptions {
  constructor(private readonly settings: ProcessorSettingsService) {}

  /** Null when the publication has no processor settings to ask with. A processor failure throws, so the event is retried. */
  async fetch(publicationId: string, processorSubscriptionId: string): Promise<Stripe.Subscription | null> {
    const client = await this.settings.client(publicationId);
    if (!client) return null;
    return atProcessor('read the subscription', () => client.subscriptions.retrieve(processorSubscriptionId));
  }
}
