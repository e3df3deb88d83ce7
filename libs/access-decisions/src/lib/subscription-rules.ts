import type { CustomerEntitlement } from '@gatehouse/contracts';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Decisions E6: a subscription counts while active or trialing, and while past_due for less than
 * the grace period: the publication's own when billing reports one, else `graceDays` (the
 * service's PAST_DUE_GRACE_DAYS). A past_due subscription whose start of arrears billing does not
 * know counts no longer.
 */
export function subscriptionCounts(entitlement: CustomerEntitlement, now: Date, graceDays: number): boolean {
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

/** A product's entitlements list the paywalls it unlocks (a subscription's, an organisation's); an empty list unlocks every paywall. */
export function unlocksPaywall(grant: { paywallIds: readonly string[] }, paywallId: string): boolean {
  return grant.paywallIds.length === 0 || grant.paywallIds.includes(paywallId);
}

/** What lets the customer pass this paywall: their own subscription first, else an organisation's seat; undefined: nothing. */
export function unlockingEntitlement(entitlements: readonly CustomerEntitlement[], paywallId: string, now: Date, graceDays: number): CustomerEntitlement | undefined {
  const passing = entitlements.filter((entitlement) => subscriptionCounts(entitlement, now, graceDays) && unlocksPaywall(entitlement, paywallId));
  return passing.find((entitlement) => !entitlement.organisation) ?? passing[0];
}

/** The `subscriber` segment attribute: any subscription that counts, whatever it unlocks. */
export function isSubscriber(entitlements: readonly CustomerEntitlement[], now: Date, graceDays: number): boolean {
  return entitlements.some((entitlement) => subscriptionCounts(entitlement, now, graceDays));
}
