import type { CustomerEntitlement, PurchaseEntitlement, SubscriptionEntitlement, SubscriptionStatus } from '@gatehouse/contracts';
import { isSubscriber, purchaseGrant, unlockingEntitlement } from '../subscription-rules';

const isSubscriberFor = (...args: Parameters<typeof unlockingEntitlement>) => unlockingEntitlement(...args) !== undefined;

const NOW = new Date('2031-03-10T12:00:00.000Z');
const GRACE_DAYS = 3;
const DAY_MS = 24 * 3600 * 1000;

function entitlement(status: SubscriptionStatus, extra: Partial<SubscriptionEntitlement> = {}): SubscriptionEntitlement {
  return { kind: 'subscription', subscriptionId: 's1', status, pastDueSince: null, currentPeriodEnd: '2031-04-01T00:00:00.000Z', paywallIds: [], ...extra };
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
    const seat = entitlement('active', { subscriptionId: null, organisation: { organisationId: 'o1', name: 'Acme University', startsAt: '2031-01-01T00:00:00.000Z', endsAt: null } });
    const own = entitlement('active', { paywallIds: ['sports'] });
    expect(unlockingEntitlement([seat, own], 'sports', NOW, GRACE_DAYS)).toBe(own);
    expect(unlockingEntitlement([seat, own], 'business', NOW, GRACE_DAYS)).toBe(seat);
  });

  it("an organisation's seat counts within its term only, judged at the check's time", () => {
    const seatFor = (startsAt: Date, endsAt: Date | null) =>
      entitlement('active', { subscriptionId: null, organisation: { organisationId: 'o1', name: 'Acme', startsAt: startsAt.toISOString(), endsAt: endsAt?.toISOString() ?? null } });
    const ms = (offset: number) => new Date(NOW.getTime() + offset);
    expect(isSubscriberFor([seatFor(ms(1), null)], 'p1', NOW, GRACE_DAYS)).toBe(false);
    expect(isSubscriberFor([seatFor(NOW, null)], 'p1', NOW, GRACE_DAYS)).toBe(true);
    expect(isSubscriberFor([seatFor(ms(-DAY_MS), ms(1))], 'p1', NOW, GRACE_DAYS)).toBe(true);
    expect(isSubscriberFor([seatFor(ms(-DAY_MS), NOW)], 'p1', NOW, GRACE_DAYS)).toBe(false);
    expect(isSubscriber([seatFor(ms(-DAY_MS), NOW)], NOW, GRACE_DAYS)).toBe(false);
  });
});

describe('what a pass or a single article grants (issue #25 item 4)', () => {
  const pass = (endsAt: string, paywallIds: string[] = []): PurchaseEntitlement => ({ kind: 'pass', purchaseId: 'u1', endsAt, pageKey: null, paywallIds });
  const article = (pageKey: string): PurchaseEntitlement => ({ kind: 'single_article', purchaseId: 'u2', endsAt: null, pageKey, paywallIds: ['sports'] });
  const PAGE = 'news.example/premium/story';

  it('a pass grants until its end, not at it, on the paywalls its product unlocks', () => {
    const ends = new Date(NOW.getTime() + 1).toISOString();
    expect(purchaseGrant([pass(ends)], 'p1', PAGE, NOW)).toBe('pass');
    expect(purchaseGrant([pass(NOW.toISOString())], 'p1', PAGE, NOW)).toBeNull();
    expect(purchaseGrant([pass(ends, ['sports'])], 'p1', PAGE, NOW)).toBeNull();
    expect(purchaseGrant([pass(ends, ['sports'])], 'sports', PAGE, NOW)).toBe('pass');
  });

  it('a single article opens its page under any paywall, for good, and no other page', () => {
    const entitlements: CustomerEntitlement[] = [article(PAGE)];
    expect(purchaseGrant(entitlements, 'p1', PAGE, new Date('2099-01-01T00:00:00.000Z'))).toBe('single_article');
    expect(purchaseGrant(entitlements, 'p1', 'news.example/premium/other', NOW)).toBeNull();
    expect(purchaseGrant(entitlements, 'p1', 'other.example/premium/story', NOW)).toBeNull();
  });

  it('neither makes the reader a subscriber', () => {
    const entitlements: CustomerEntitlement[] = [pass(new Date(NOW.getTime() + DAY_MS).toISOString()), article(PAGE)];
    expect(isSubscriberFor(entitlements, 'p1', NOW, GRACE_DAYS)).toBe(false);
    expect(isSubscriber(entitlements, NOW, GRACE_DAYS)).toBe(false);
  });
});
