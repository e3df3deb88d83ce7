import type { SubscriptionSource, SubscriptionStatus } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { Subscription } from './subscription.entity';

export interface NewSubscription {
  publicationId: string;
  customerId: string;
  priceId: string;
  status: SubscriptionStatus;
  source: SubscriptionSource;
  currentPeriodStart: Date;
  currentPeriodEnd: Date | null;
  now: Date;
}

/** A subscription not stored yet: nothing cancelled, scheduled or announced; the writer derives the rest. */
export function newSubscription(init: NewSubscription, processor: Partial<Subscription> = {}): Subscription {
  const { now, ...fields } = init;
  return Object.assign(new Subscription(), {
    id: randomUUID(),
    ...fields,
    cancelAtPeriodEnd: false,
    trialStart: null,
    trialEnd: null,
    cancellationReason: null,
    pastDueSince: null,
    activatedAt: null,
    cancelledAt: null,
    pausedUntil: null,
    scheduledPriceId: null,
    processorSubscriptionId: null,
    processorCheckoutSessionId: null,
    processorStateAt: null,
    offerId: null,
    offerCode: null,
    createdAt: now,
    updatedAt: now,
    ...processor,
  });
}
