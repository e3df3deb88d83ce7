import { MAX_COUNTED_IDENTITIES, MemoryWindowStorage } from '../rate-limit.storage';

const MINUTE = 60_000;

describe('in-memory rate-limit counters', () => {
  afterEach(() => jest.useRealTimers());

  it('counts per identity within a window and starts again in the next', async () => {
    jest.useFakeTimers({ now: new Date('2026-05-01T10:00:05Z') });
    const storage = new MemoryWindowStorage();
    for (let i = 0; i < 3; i++) await storage.increment('a', MINUTE, 3);
    expect(await storage.increment('a', MINUTE, 3)).toMatchObject({ totalHits: 4, isBlocked: true, timeToExpire: 55 });
    expect(await storage.increment('b', MINUTE, 3)).toMatchObject({ totalHits: 1, isBlocked: false });
    jest.setSystemTime(new Date('2026-05-01T10:01:00Z'));
    expect(await storage.increment('a', MINUTE, 3)).toMatchObject({ totalHits: 1, isBlocked: false, timeToExpire: 60 });
  });

  it('counts identities past the cap together, so a flood of new ones is limited as one', async () => {
    jest.useFakeTimers({ now: new Date('2026-05-01T10:00:05Z') });
    const storage = new MemoryWindowStorage();
    for (let i = 0; i < MAX_COUNTED_IDENTITIES; i++) await storage.increment(`ip:${i}`, MINUTE, 200);
    const flood = [];
    for (let i = 0; i < 201; i++) flood.push(await storage.increment(`ip:new-${i}`, MINUTE, 200));
    expect(flood[199]).toMatchObject({ totalHits: 200, isBlocked: false });
    expect(flood[200]).toMatchObject({ totalHits: 201, isBlocked: true });
    // Identities counted before the flood keep their own budgets.
    expect(await storage.increment('ip:7', MINUTE, 200)).toMatchObject({ totalHits: 2, isBlocked: false });
  });
});
