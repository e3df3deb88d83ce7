import type { AccessReason, CustomerEntitlement, SubscriptionEntitlement } from '@gatehouse/contracts';
import { termOf, withinTerm } from './organisation-networks';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Decisions E6: a subscription counts while active or trialing, and while past_due for less than
 * the grace period: the publication's own when billing reports one, else `graceDays` (the
 * service's PAST_DUE_GRACE_DAYS). A past_due subscription whose start of arrears billing does not
 * know counts no longer. An organisation's seat counts within the organisation's term only.
 */
export function subscriptionCounts(entitlement: SubscriptionEntitlement, now: Date, graceDays: number): boolean {
  if (entitlement.organisation && !withinTerm(termOf(entitlement.organisation), now)) return false;
  switch (entitlement.status) {
    case 'active':
    case 'trialing':
      return true;
    case 'past_due': {
      const since = entitlement.pastDueSince === null ? Number.NaN : Date.parse(entitlement.pastDueSince);
      return now.getTime() - since < (entitlement.pastDueGraceDays ?? graceDays) * DAY_MS;
    }
    default:
      return false;
  }
}

/** A product's entitlements list the paywalls it unlocks (a subscription's, a pass's, an organisation's); an empty list unlocks every paywall. */
export function unlocksPaywall(grant: { paywallIds: readonly string[] }, paywallId: string): boolean {
  return grant.paywallIds.length === 0 || grant.paywallIds.includes(paywallId);
}

/** What lets the customer pass this paywall as a subscriber: their own subscription first, else an organisation's seat; undefined: nothing. */
export function unlockingEntitlement(entitlements: readonly CustomerEntitlement[], paywallId: string, now: Date, graceDays: number): SubscriptionEntitlement | undefined {
  const passing = entitlements.filter(
    (entitlement): entitlement is SubscriptionEntitlement => entitlement.kind === 'subscription' && subscriptionCounts(entitlement, now, graceDays) && unlocksPaywall(entitlement, paywallId),
  );
  return passing.find((entitlement) => !entitlement.organisation) ?? passing[0];
}

/** The `subscriber` segment attribute: any subscription that counts, whatever it unlocks (a pass or an article bought is no subscription). */
export function isSubscriber(entitlements: readonly CustomerEntitlement[], now: Date, graceDays: number): boolean {
  return entitlements.some((entitlement) => entitlement.kind === 'subscription' && subscriptionCounts(entitlement, now, graceDays));
}

/**
 * What a one-time purchase grants on this page under this paywall (issue #25 item 4): a pass
 * until its end (strictly before it), on the paywalls its product unlocks; a single article on
 * its page (`pageKey`), under any paywall, for good. Null when none does.
 */
export function purchaseGrant(entitlements: readonly CustomerEntitlement[], paywallId: string, pageKey: string, now: Date): Extract<AccessReason, 'pass' | 'single_article'> | null {
  const pass = entitlements.some(
    (entitlement) => entitlement.kind === 'pass' && entitlement.endsAt !== null && now.getTime() < Date.parse(entitlement.endsAt) && unlocksPaywall(entitlement, paywallId),
  );
  if (pass) return 'pass';
  return entitlements.some((entitlement) => entitlement.kind === 'single_article' && entitlement.pageKey === pageKey) ? 'single_article' : null;
}
