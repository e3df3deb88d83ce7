import type { SubscriptionStatus } from './events';
import { requestPattern } from './patterns';

/*
 * Billing: products, prices, subscriptions, processor settings and inbound processor events
 * (spec 2.5, 2.6, 3, 4.3, 4.5; decisions F, H2). The billing feature adds its patterns here.
 */

/** One subscription as access needs it to decide whether a customer is a subscriber (decisions E6). */
export interface CustomerEntitlement {
  subscriptionId: string;
  status: SubscriptionStatus;
  /** When the subscription became past_due (ISO), for the grace period; null otherwise. */
  pastDueSince: string | null;
  currentPeriodEnd: string;
  /** Paywall ids the subscription's product unlocks; empty means every paywall. */
  paywallIds: string[];
}

export const BillingRequests = {
  /** Every subscription of the customer that is not cancelled, with what it unlocks. */
  GetEntitlements: requestPattern<{ publicationId: string; customerId: string }, { entitlements: CustomerEntitlement[] }>(
    'billing.entitlements.get',
  ),
} as const;
