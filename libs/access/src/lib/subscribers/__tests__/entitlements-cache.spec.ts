import type { CustomerEntitlement } from '@gatehouse/contracts';
import { ManualClock } from '@gatehouse/platform';
import { EntitlementsCache } from '../entitlements-cache';

const active: CustomerEntitlement = { subscriptionId: 's1', status: 'active', pastDueSince: null, currentPeriodEnd: '2031-04-01T00:00:00.000Z', paywallIds: [] };

describe('the entitlements cache', () => {
  let clock: ManualClock;
  let failures: Array<{ key: string; usedStale: boolean }>;
  let cache: EntitlementsCache;
  let lookups: number;
  const answer = (entitlements: CustomerEntitlement[]) => async () => {
    lookups += 1;
    return entitlements;
  };
  const fail = async (): Promise<CustomerEntitlement[]> => {
    lookups += 1;
    throw new Error('no answer');
  };

  beforeEach(() => {
    clock = new ManualClock(new Date('2031-03-10T12:00:00.000Z'));
    failures = [];
    lookups = 0;
    cache = new EntitlementsCache(clock, { freshMs: 60_000, retryMs: 5_000, maxEntries: 2, onFailure: (key, _e, usedStale) => failures.push({ key, usedStale }) });
  });

  it('answers from the cache while fresh, and asks again after', async () => {
    expect(await cache.get('k', answer([active]))).toEqual([active]);
    expect(await cache.get('k', answer([]))).toEqual([active]);
    clock.advance(60_001);
    expect(await cache.get('k', answer([]))).toEqual([]);
    expect(lookups).toBe(2);
  });

  it('asks again at once after a drop', async () => {
    await cache.get('k', answer([active]));
    cache.drop('k');
    expect(await cache.get('k', answer([]))).toEqual([]);
  });

  it('falls back to the last answer when billing fails, else to no subscriptions, and retries after a short while', async () => {
    expect(await cache.get('new', fail)).toEqual([]);
    expect(failures).toEqual([{ key: 'new', usedStale: false }]);

    await cache.get('k', answer([active]));
    clock.advance(60_001);
    expect(await cache.get('k', fail)).toEqual([active]);
    expect(failures[1]).toEqual({ key: 'k', usedStale: true });
    expect(await cache.get('k', fail)).toEqual([active]);
    expect(lookups).toBe(3);
    clock.advance(5_001);
    expect(await cache.get('k', answer([]))).toEqual([]);
  });

  it('shares one lookup between concurrent checks, and a drop during it keeps its answer out of the cache', async () => {
    let release!: (value: CustomerEntitlement[]) => void;
    const slow = () => {
      lookups += 1;
      return new Promise<CustomerEntitlement[]>((resolve) => (release = resolve));
    };
    const first = cache.get('k', slow);
    const second = cache.get('k', slow);
    cache.drop('k');
    release([active]);
    expect(await first).toEqual([active]);
    expect(await second).toEqual([active]);
    expect(lookups).toBe(1);
    expect(await cache.get('k', answer([]))).toEqual([]);
  });

  it('keeps at most maxEntries, forgetting the oldest', async () => {
    await cache.get('a', answer([active]));
    await cache.get('b', answer([active]));
    await cache.get('c', answer([active]));
    expect(await cache.get('a', answer([]))).toEqual([]);
  });
});
