import { Injectable } from '@nestjs/common';
import type { InboundContext } from './inbound-context';
import { isUuid } from '@gatehouse/platform';

export interface PublicationHints {
  metadata?: Record<string, string> | null;
  processorSubscriptionId?: string | null;
  processorCustomerId?: string | null;
}

/**
 * Which publication an event is about. An event verified with a publication's own secret is about
 * that publication only (metadata naming another one is ignored: a tenant cannot reach another).
 * One verified with PROCESSOR_WEBHOOK_SECRET, the operator's account shared by publications, is
 * placed by the `publicationId` the service put in the metadata, else by the processor ids on record.
 */
@Injectable()
export class PublicationResolver {
  async resolve({ manager, verifiedFor }: InboundContext, hints: PublicationHints): Promise<string | null> {
    const claimed = hints.metadata?.['publicationId'];
    if (verifiedFor) return claimed && claimed !== verifiedFor ? null : verifiedFor;
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
}
