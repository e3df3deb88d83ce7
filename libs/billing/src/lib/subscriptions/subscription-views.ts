import { NEVER_ENDS, type SubscriptionEventData, type SubscriptionView } from '@gatehouse/contracts';
import type { SubscriptionState } from './subscription-changes';
import type { Subscription } from './subscription.entity';

export function subscriptionEventData(subscription: Subscription): SubscriptionEventData {
  return {
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    priceId: subscription.priceId,
    status: subscription.status,
    currentPeriodStart: subscription.currentPeriodStart.toISOString(),
    currentPeriodEnd: subscription.currentPeriodEnd?.toISOString() ?? NEVER_ENDS,
    source: subscription.source,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    trialStart: subscription.trialStart?.toISOString() ?? null,
    trialEnd: subscription.trialEnd?.toISOString() ?? null,
    cancellationReason: subscription.cancellationReason,
    ...(subscription.offerId && subscription.offerCode ? { offer: { offerId: subscription.offerId, code: subscription.offerCode } } : {}),
    pausedUntil: subscription.pausedUntil?.toISOString() ?? null,
    scheduledChange:
      subscription.scheduledPriceId && subscription.currentPeriodEnd
        ? { priceId: subscription.scheduledPriceId, effectiveAt: subscription.currentPeriodEnd.toISOString() }
        : null,
  };
}

export function subscriptionView(subscription: Subscription): SubscriptionView {
  return { ...subscriptionEventData(subscription), createdAt: subscription.createdAt.toISOString() };
}

export function stateOf(subscription: Subscription): SubscriptionState {
  return {
    status: subscription.status,
    priceId: subscription.priceId,
    currentPeriodStart: subscription.currentPeriodStart,
    currentPeriodEnd: subscription.currentPeriodEnd,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    trialStart: subscription.trialStart,
    trialEnd: subscription.trialEnd,
    pausedUntil: subscription.pausedUntil,
    scheduledPriceId: subscription.scheduledPriceId,
  };
}
