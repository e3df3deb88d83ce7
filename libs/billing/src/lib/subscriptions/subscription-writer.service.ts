import { Injectable } from '@nestjs/common';
import { Events, type CancellationReason, type EventType, type SubscriptionEventData } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import type { EntityManager } from 'typeorm';
import { EntitlementsAnnouncer } from './entitlements-announcer.service';
import { isLive } from './status-mapping';
import { announcementsFor, sameState, type SubscriptionAnnouncement, type SubscriptionState } from './subscription-changes';
import { stateOf, subscriptionEventData } from './subscription-views';
import { Subscription } from './subscription.entity';
import { definedOnly } from '../shared/defined-only';

const OUTBOUND: Record<SubscriptionAnnouncement, EventType<SubscriptionEventData>> = {
  created: Events.SubscriptionCreated,
  updated: Events.SubscriptionUpdated,
  cancelled: Events.SubscriptionCancelled,
  trial_ended: Events.SubscriptionTrialEnded,
  paused: Events.SubscriptionPaused,
  resumed: Events.SubscriptionResumed,
};

export type SubscriptionChange = Partial<SubscriptionState> & { processorStateAt?: Date | null; cancellationReason?: CancellationReason | null };

/**
 * The one way a subscription is stored or changed: in the caller's transaction, it keeps the
 * derived fields (past-due and cancellation times, first activation) and emits, through the
 * outbox, the outbound events the change calls for and the entitlements change for access.
 */
@Injectable()
export class SubscriptionWriter {
  constructor(
    private readonly outbox: Outbox,
    private readonly entitlements: EntitlementsAnnouncer,
    private readonly clock: Clock,
  ) {}

  /** False when a subscription with the same processor ids exists already (a concurrent delivery stored it first). */
  async insert(manager: EntityManager, subscription: Subscription): Promise<boolean> {
    return (await this.insertAll(manager, subscription.publicationId, [subscription])).length > 0;
  }

  /** Subscriptions of the publication in one statement (an import's batch), announced as `insert` does; answers those stored. */
  async insertAll(manager: EntityManager, publicationId: string, subscriptions: Subscription[]): Promise<Subscription[]> {
    if (subscriptions.length === 0) return [];
    for (const subscription of subscriptions) this.derive(null, subscription);
    const inserted = await manager.createQueryBuilder().insert().into(Subscription).values(subscriptions).orIgnore().returning('id').execute();
    const ids = new Set((inserted.raw as Array<{ id: string }>).map((row) => row.id));
    const stored = subscriptions.filter((subscription) => ids.has(subscription.id));
    const announced = new Map<SubscriptionAnnouncement, SubscriptionEventData[]>();
    for (const subscription of stored) {
      for (const announcement of announcementsFor(null, stateOf(subscription), false)) {
        announced.set(announcement, [...(announced.get(announcement) ?? []), subscriptionEventData(subscription)]);
      }
    }
    for (const [announcement, data] of announced) await this.outbox.addAll(manager, OUTBOUND[announcement], data, publicationId);
    await this.entitlements.customers(manager, publicationId, stored.map((subscription) => subscription.customerId));
    return stored;
  }

  /** Applies the change to a subscription the caller holds locked; says whether anything announced changed. */
  async change(manager: EntityManager, subscription: Subscription, change: SubscriptionChange): Promise<boolean> {
    const before = stateOf(subscription);
    const announcedBefore = subscription.activatedAt !== null;
    Object.assign(subscription, definedOnly(change));
    const changed = !sameState(before, stateOf(subscription));
    if (changed) this.derive(before, subscription);
    subscription.updatedAt = this.clock.now();
    await manager.save(subscription);
    if (changed) await this.announce(manager, before, subscription, announcedBefore);
    return changed;
  }

  private derive(before: SubscriptionState | null, subscription: Subscription): void {
    const now = this.clock.now();
    if (subscription.status !== 'past_due') subscription.pastDueSince = null;
    else if (before?.status !== 'past_due') subscription.pastDueSince = now;
    if (subscription.status === 'cancelled' && before?.status !== 'cancelled') subscription.cancelledAt = now;
    if (subscription.activatedAt === null && isLive(subscription.status)) subscription.activatedAt = now;
  }

  private async announce(manager: EntityManager, before: SubscriptionState | null, subscription: Subscription, announcedBefore: boolean): Promise<void> {
    const data = subscriptionEventData(subscription);
    for (const announcement of announcementsFor(before, stateOf(subscription), announcedBefore)) {
      const priceChanged = announcement === 'updated' && before !== null && before.priceId !== subscription.priceId;
      await this.outbox.add(manager, OUTBOUND[announcement], priceChanged ? { ...data, previousPriceId: before.priceId } : data, subscription.publicationId);
    }
    await this.entitlements.customer(manager, subscription.publicationId, subscription.customerId);
  }
}

