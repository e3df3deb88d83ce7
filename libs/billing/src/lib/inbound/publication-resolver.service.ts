import { Injectable } from '@nestjs/common';
import type { InboundContext } from './inbound-context';
import { isUuid } from '@gatehouse/platform';
import { BusClient } from '@gatehouse/bus';
import { IdentityRequests } from '@gatehouse/contracts';

export interface PublicationHints {
  metadata?: Record<string, string> | null;
  processorSubscriptionId?: string | null;
  processorCustomerId?: string | null;
}

/**
 * Which publication an event is about (decisions F6). One verified with a publication's own secret
 * is about that publication only: metadata naming another publication, or a customer of another
 * publication, makes it about none (a tenant cannot reach another). One verified with
 * PROCESSOR_WEBHOOK_SECRET, the operator's account shared by publications, is placed in the
 * publication of the customer its metadata names, else by the `publicationId` there, else by the
 * processor ids on record.
 */
@Injectable()
export class PublicationResolver {
  constructor(private readonly bus: BusClient) {}

  async resolve({ manager, verifiedFor }: InboundContext, hints: PublicationHints): Promise<string | null> {
    const claimed = hints.metadata?.['publicationId'];
    const customersPublication = await this.publicationOfCustomer(hints.metadata?.['customerId']);
    if (verifiedFor) {
      if (claimed && claimed !== verifiedFor) return null;
      return customersPublication && customersPublication !== verifiedFor ? null : verifiedFor;
    }
    if (customersPublication) return customersPublication;
    if (isUuid(claimed)) return claimed;
    if (hints.processorSubscriptionId) {
      const [row]: Array<{ publication_id: string }> = await manager.query(
        'SELECT publication_id FROM subscriptions WHERE processor_subscription_id = $1 LIMIT 1',
        [hints.processorSubscriptionId],
      );
      if (row) return row.publication_id;
    }
    if (hints.processorCustomerId) {
      const [row]: Array<{ publication_id: string }> = await manager.query(
        'SELECT publication_id FROM processor_customers WHERE processor_customer_id = $1 LIMIT 1',
        [hints.processorCustomerId],
      );
      if (row) return row.publication_id;
    }
    return null;
  }

  /** Identity's answer; a failure to ask fails the event, which the queue then retries. */
  private async publicationOfCustomer(customerId: string | undefined): Promise<string | null> {
    if (!isUuid(customerId)) return null;
    return (await this.bus.request(IdentityRequests.PublicationOfCustomer, { customerId })).publicationId;
  }
}
