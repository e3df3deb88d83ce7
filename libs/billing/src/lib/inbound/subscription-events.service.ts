import { Injectable } from '@nestjs/common';
import { Clock } from '@gatehouse/platform';
import type Stripe from 'stripe';
import { OrganisationsService } from '../organisations/organisations.service';
import { idOf, snapshotOf, type ProcessorSnapshot } from '../subscriptions/processor-snapshot';
import { ProcessorSubscriptionSync } from '../subscriptions/processor-subscription-sync.service';
import { FreshSubscriptions } from './fresh-subscriptions.service';
import { eventTime, readTime, type InboundContext } from './inbound-context';
import { PublicationResolver } from './publication-resolver.service';

/**
 * `customer.subscription.created|updated|deleted` (spec 3.2): each carries the whole subscription,
 * so the most recent one wins. Events may arrive in any order: one older than the state held is
 * stale; one of the same second cannot be ordered, so the processor is asked for the current state.
 */
@Injectable()
export class SubscriptionEventHandler {
  constructor(
    private readonly clock: Clock,
    private readonly resolver: PublicationResolver,
    private readonly sync: ProcessorSubscriptionSync,
    private readonly fresh: FreshSubscriptions,
    private readonly organisations: OrganisationsService,
  ) {}

  async handle(context: InboundContext, subscription: Stripe.Subscription): Promise<string> {
    const publicationId = await this.resolver.resolve(context, {
      metadata: subscription.metadata,
      processorSubscriptionId: subscription.id,
      processorCustomerId: idOf(subscription.customer),
    });
    if (!publicationId) return 'ignored: not about a publication of this service';
    const happenedAt = eventTime(context.event);
    const held = await this.sync.locked(context.manager, publicationId, subscription.id);
    const heldAt = held?.processorStateAt?.getTime();
    if (heldAt !== undefined && happenedAt.getTime() < heldAt) return 'stale: a more recent state is held';
    if (heldAt === happenedAt.getTime()) {
      const current = await this.fresh.fetch(publicationId, subscription.id);
      if (!current) return 'stale: as recent as the state held, and the processor cannot be asked';
      const readAt = readTime(context.event, this.clock.now());
      return this.apply(context, publicationId, snapshotOf(current), readAt);
    }
    const snapshot = snapshotOf(subscription);
    if (context.event.type === 'customer.subscription.deleted') snapshot.status = 'cancelled';
    return this.apply(context, publicationId, snapshot, happenedAt);
  }

  /** The subscription, and the organisation bought with it (its seats and its end follow the processor's). */
  private async apply(context: InboundContext, publicationId: string, snapshot: ProcessorSnapshot, stateAt: Date): Promise<string> {
    const { outcome } = await this.sync.apply(context.manager, publicationId, snapshot, stateAt);
    await this.organisations.followSubscription(context.manager, publicationId, snapshot, stateAt);
    return outcome;
  }
}
