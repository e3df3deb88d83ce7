import { AppError } from '@gatehouse/platform';
import type { Subscription } from './subscription.entity';

/**
 * A subscription the caller may change: the publication's, and the reader's own when a reader
 * asks (another reader's answers 404 like an unknown id, so ids cannot be probed). Plan changes and
 * pauses are made at the processor, so a manual grant, a lifetime purchase or an ended
 * subscription has none (409).
 */
export function changeableAtProcessor(subscription: Subscription, customerId: string | undefined, action: string): string {
  if (customerId !== undefined && subscription.customerId !== customerId) throw new AppError('not_found', 'No such subscription.');
  if (subscription.status === 'cancelled') throw new AppError('conflict', `This subscription has ended: there is nothing to ${action}.`);
  if (!subscription.processorSubscriptionId) {
    throw new AppError('conflict', `Only a subscription billed by the payment processor can ${action}; this one is a manual grant or a one-time purchase.`);
  }
  return subscription.processorSubscriptionId;
}
