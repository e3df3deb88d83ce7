import type { CustomerEntitlement, SubscriptionStatus } from '@gatehouse/contracts';
import { isSubscriber, unlockingEntitlement } from '../subscription-rules';

const isSubscriberFor = (...args: Parameters<typeof unlockingEntitlement>) => unlockingEntitlement(...args) !== undefined;

const NOW = new Date('2031-03-10T12:00:00.000Z');
const GRACE_DAYS = 3;
const DAY_MS = 24 * 3600 * 1000;

function entitlement(status: SubscriptionStatus, extra: Partial<CustomerEntitlement> = {}): CustomerEntitlement {
  return { subscriptionId: 's1', status, pastDueSince: null, currentPeriodEnd: '2031-04-01T00:00:00.000Z', paywallIds: [], ...extra };
}
const pastDueFor = (ms: number) => entitlement('past_due', { pastDueSince: new Date(NOW.getTime() - ms).toISOString() });

describe('who is a subscriber (decisions E6)', () => {
  it('active and trialing subscriptions count', () => {
    expect(isSubscriberFor([entitlement('active')], 'p1', NOW, GRACE_DAYS)).toBe(true);
    expect(isSubscriberFor([entitlement('trialing')], 'p1', NOW, GRACE_DAYS)).toBe(true);
  });

  it('past_due counts for less than PAST_DUE_GRACE_DAYS days, and not after', () => {
    expect(isSubscriberFor([pastDueFor(DAY_MS)], 'p1', NOW, GRACE_DAYS)).toBe(true);
    expect(isSubscriberFor([pastDueFor(GRACE_DAYS * DAY_MS - 1)], 'p1', NOW, GRACE_DAYS)).toBe(true);
    expect(isSubscriberFor([pastDueFor(GRACE_DAYS * DAY_MS)], 'p1', NOW, GRACE_DAYS)).toBe(false);
    expect(isSubscriberFor([pastDueFor(10 * DAY_MS)], 'p1', NOW, GRACE_DAYS)).toBe(false);
    expect(isSubscriberFor([pastDueFor(DAY_MS)], 'p1', NOW, 0)).toBe(false);
    expect(isSubscriberFor([entitlement('past_due')], 'p1', NOW, GRACE_DAYS)).toBe(false);
  });

  it("past_due follows the publication's own grace period when billing reports one, whatever the service's", () => {
    const since = (ms: number, days: number) => ({ ...pastDueFor(ms), pastDueGraceDays: days });
    expect(isSubscriberFor([since(4 * DAY_MS, 5)], 'p1', NOW, GRACE_DAYS)).toBe(true);
    expect(isSubscriberFor([since(5 * DAY_MS, 5)], 'p1', NOW, GRACE_DAYS)).toBe(false);
    expect(isSubscriberFor([since(1, 0)], 'p1', NOW, GRACE_DAYS)).toBe(false);
    expect(isSubscriber([since(DAY_MS, 0)], NOW, GRACE_DAYS)).toBe(false);
  });

  it('cancelled subscriptions and no subscriptions do not count', () => {
    expect(isSubscriberFor([entitlement('cancelled')], 'p1', NOW, GRACE_DAYS)).toBe(false);
    expect(isSubscriberFor([], 'p1', NOW, GRACE_DAYS)).toBe(false);
    expect(isSubscriber([entitlement('cancelled')], NOW, GRACE_DAYS)).toBe(false);
  });

  it("a product's entitlements unlock only their paywalls; none listed unlocks every paywall", () => {
    const sports = entitlement('active', { paywallIds: ['sports', 'scores'] });
    expect(isSubscriberFor([sports], 'sports', NOW, GRACE_DAYS)).toBe(true);
    expect(isSubscriberFor([sports], 'business', NOW, GRACE_DAYS)).toBe(false);
    expect(isSubscriberFor([sports, entitlement('active')], 'business', NOW, GRACE_DAYS)).toBe(true);
    expect(isSubscriberFor([sports, entitlement('cancelled')], 'business', NOW, GRACE_DAYS)).toBe(false);
    // The segment attribute asks whether the customer subscribes to anything.
    expect(isSubscriber([sports], NOW, GRACE_DAYS)).toBe(true);
  });

  it("the reader's own subscription names the grant before an organisation's seat", () => {
    const seat = entitlement('active', { subscriptionId: null, organisation: { organisationId: 'o1', name: 'Acme University' } });
    const own = entitlement('active', { paywallIds: ['sports'] });
    expect(unlockingEntitlement([seat, own], 'sports', NOW, GRACE_DAYS)).toBe(own);
    expect(unlockingEntitlement([seat, own], 'business', NOW, GRACE_DAYS)).toBe(seat);
  });
});
