import { CANCELLATION_REASONS, NEVER_ENDS, type CancellationReason, type SubscriptionStatus } from '@gatehouse/contracts';
import type Stripe from 'stripe';
import { serviceStatusOf } from './status-mapping';

/** A processor subscription as billing reads it. */
export interface ProcessorSnapshot {
  processorSubscriptionId: string;
  processorCustomerId: string;
  processorPriceId: string | null;
  /** Units of the price: an organisation's seats when it was bought by the seat. */
  quantity: number;
  /** Null while the processor has no subscription to speak of yet (`incomplete`). */
  status: SubscriptionStatus | null;
  currentPeriodStart: Date;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  trialStart: Date | null;
  trialEnd: Date | null;
  /** The processor's `cancellation_details.feedback`: the reason given here or in its portal. */
  cancellationReason: CancellationReason | null;
  /** Collection paused (`pause_collection`) until then; a pause without an end reads as never resuming by itself. */
  pausedUntil: Date | null;
  metadata: Record<string, string>;
}

export function snapshotOf(subscription: Stripe.Subscription): ProcessorSnapshot {
  // The billing period lives on the items; every item of a subscription shares it.
  const item = subscription.items?.data?.[0];
  const cancelAt = subscription.cancel_at;
  return {
    processorSubscriptionId: subscription.id,
    processorCustomerId: idOf(subscription.customer),
    processorPriceId: item?.price?.id ?? null,
    quantity: item?.quantity ?? 1,
    status: serviceStatusOf(subscription.status),
    currentPeriodStart: fromUnix(item?.current_period_start ?? subscription.start_date),
    currentPeriodEnd: item?.current_period_end ? fromUnix(item.current_period_end) : null,
    // The processor's portal schedules a cancellation with `cancel_at` at the period end rather than the flag.
    cancelAtPeriodEnd: subscription.cancel_at_period_end || (cancelAt !== null && cancelAt !== undefined && cancelAt === item?.current_period_end),
    trialStart: subscription.trial_start ? fromUnix(subscription.trial_start) : null,
    trialEnd: subscription.trial_end ? fromUnix(subscription.trial_end) : null,
    cancellationReason: reasonOf(subscription.cancellation_details?.feedback),
    pausedUntil: subscription.pause_collection ? (subscription.pause_collection.resumes_at ? fromUnix(subscription.pause_collection.resumes_at) : new Date(NEVER_ENDS)) : null,
    metadata: subscription.metadata ?? {},
  };
}

function reasonOf(feedback: string | null | undefined): CancellationReason | null {
  return (CANCELLATION_REASONS as readonly string[]).includes(feedback ?? '') ? (feedback as CancellationReason) : null;
}

export function idOf(reference: string | { id: string } | null | undefined): string {
  return typeof reference === 'string' ? reference : (reference?.id ?? '');
}

export function fromUnix(seconds: number): Date {
  return new Date(seconds * 1000);
}
