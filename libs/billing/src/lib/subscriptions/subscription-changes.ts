import type { SubscriptionStatus } from '@gatehouse/contracts';
import { isLive } from './status-mapping';

/** What the outbound subscription events describe (spec 2.6 and the flags of spec 6). */
export interface SubscriptionState {
  status: SubscriptionStatus;
  priceId: string;
  currentPeriodStart: Date;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  trialStart: Date | null;
  trialEnd: Date | null;
  pausedUntil: Date | null;
  scheduledPriceId: string | null;
}

export type SubscriptionAnnouncement = 'created' | 'updated' | 'cancelled' | 'trial_ended' | 'paused' | 'resumed';

/**
 * The outbound events a change calls for (spec 6.2):
 * - `created` once, when the subscription first becomes active or trialing; nothing is announced before;
 * - `updated` for any later change of status, price, period, `cancelAtPeriodEnd` or trial fields;
 * - `cancelled` besides, when a cancellation is made: at once, or scheduled for the period end
 *   (not again when the scheduled one takes effect);
 * - `trial_ended` besides, when it leaves trialing;
 * - `paused` when collection is paused, `resumed` when it no longer is (instead of `updated` when
 *   nothing else changed; a new resume time of a paused one is an `updated`).
 */
export function announcementsFor(before: SubscriptionState | null, after: SubscriptionState, announcedBefore: boolean): SubscriptionAnnouncement[] {
  if (!announcedBefore || !before) return isLive(after.status) ? ['created'] : [];
  if (sameState(before, after)) return [];
  const pauseOnly = sameState({ ...before, pausedUntil: after.pausedUntil }, after);
  const pausedNow = before.pausedUntil === null && after.pausedUntil !== null;
  const resumedNow = before.pausedUntil !== null && after.pausedUntil === null;
  const pauseAnnouncements: SubscriptionAnnouncement[] = pausedNow ? ['paused'] : resumedNow ? ['resumed'] : [];
  if (pauseOnly && pauseAnnouncements.length > 0) return pauseAnnouncements;
  const announcements: SubscriptionAnnouncement[] = ['updated', ...pauseAnnouncements];
  const cancelledNow = after.status === 'cancelled' && before.status !== 'cancelled' && !before.cancelAtPeriodEnd;
  const cancelScheduled = after.cancelAtPeriodEnd && !before.cancelAtPeriodEnd && after.status !== 'cancelled';
  if (cancelledNow || cancelScheduled) announcements.push('cancelled');
  if (before.status === 'trialing' && after.status !== 'trialing') announcements.push('trial_ended');
  return announcements;
}

export function sameState(a: SubscriptionState, b: SubscriptionState): boolean {
  return (
    a.status === b.status &&
    a.priceId === b.priceId &&
    sameTime(a.currentPeriodStart, b.currentPeriodStart) &&
    sameTime(a.currentPeriodEnd, b.currentPeriodEnd) &&
    a.cancelAtPeriodEnd === b.cancelAtPeriodEnd &&
    sameTime(a.trialStart, b.trialStart) &&
    sameTime(a.trialEnd, b.trialEnd) &&
    sameTime(a.pausedUntil, b.pausedUntil) &&
    a.scheduledPriceId === b.scheduledPriceId
  );
}

function sameTime(a: Date | null, b: Date | null): boolean {
  return a === null || b === null ? a === b : a.getTime() === b.getTime();
}
