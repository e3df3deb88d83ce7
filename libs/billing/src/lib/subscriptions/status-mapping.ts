import type { SubscriptionStatus } from '@gatehouse/contracts';

/**
 * Spec 3.1, and the processor statuses the table leaves out: `incomplete` (the first payment is
 * still open) is not a subscription yet; `incomplete_expired` never became one; `paused` stops
 * collection, so it is treated as unpaid.
 */
const MAPPING: Record<string, SubscriptionStatus | null> = {
  active: 'active',
  trialing: 'trialing',
  past_due: 'past_due',
  canceled: 'cancelled',
  unpaid: 'past_due',
  paused: 'past_due',
  incomplete_expired: 'cancelled',
  incomplete: null,
};

/** The service status for a processor status; null when there is no subscription to speak of yet. */
export function serviceStatusOf(processorStatus: string): SubscriptionStatus | null {
  return MAPPING[processorStatus] ?? null;
}

/** A subscription that is in force: what "becoming active" means for `subscription.created` (a trial counts). */
export function isLive(status: SubscriptionStatus): boolean {
  return status === 'active' || status === 'trialing';
}
