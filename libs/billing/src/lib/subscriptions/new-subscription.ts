import type { SubscriptionSource, SubscriptionStatus } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import type { ProcessorSnapshot } from './processor-snapshot';
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

/** A processor subscription as this service first stores it, from the processor's own state at `stateAt`. */
export function newProcessorSubscription(
  owner: { publicationId: string; customerId: string; priceId: string; now: Date },
  snapshot: ProcessorSnapshot & { status: SubscriptionStatus },
  stateAt: Date,
  more: Partial<Subscription> = {},
): Subscription {
  return newSubscription(
    { ...owner, status: snapshot.status, source: 'processor', currentPeriodStart: snapshot.currentPeriodStart, currentPeriodEnd: snapshot.currentPeriodEnd },
    {
      cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
      trialStart: snapshot.trialStart,
      trialEnd: snapshot.trialEnd,
      cancellationReason: snapshot.cancellationReason,
      pausedUntil: snapshot.pausedUntil,
      processorSubscriptionId: snapshot.processorSubscriptionId,
      processorStateAt: stateAt,
      ...more,
    },
  );
}
