import type { ThrottlerStorage } from '@nestjs/throttler';
import { connectRedis, RedisOrMemory } from './redis-or-memory';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Fixed windows aligned to the clock (decisions C2): every hit in the same `ttl`-long window of
 * wall-clock time counts against one counter, so replicas sharing Redis share the window too.
 */
export function windowOf(ttlMs: number, now = Date.now()): { start: number; secondsLeft: number } {
  const start = Math.floor(now / ttlMs) * ttlMs;
  return { start, secondsLeft: Math.max(1, Math.ceil((start + ttlMs - now) / 1000)) };
}

function record(totalHits: number, limit: number, secondsLeft: number): ThrottlerStorageRecord {
  const isBlocked = totalHits > limit;
  return { totalHits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
}

/** Identities counted apart in one window; past it, new identities share one counter. */
export const MAX_COUNTED_IDENTITIES = 200_000;

/**
 * Counters of this gateway process only (no REDIS_URL). Each window's counters live in their own
 * map, dropped whole when the window passes: no scan, whatever the number of callers. A flood of
 * new identities (addresses sprayed from an IPv6 range) fills the map only up to
 * MAX_COUNTED_IDENTITIES; beyond that they are counted together, and limited together.
 */
export class MemoryWindowStorage implements ThrottlerStorage {
  private readonly windows = new Map<number, { start: number; hits: Map<string, number> }>();

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const { start, secondsLeft } = windowOf(ttl);
    let window = this.windows.get(ttl);
    if (!window || window.start !== start) {
      window = { start, hits: new Map() };
      this.windows.set(ttl, window);
    }
    const counted = window.hits.has(key) || window.hits.size < MAX_COUNTED_IDENTITIES ? key : OVERFLOW;
    const hits = (window.hits.get(counted) ?? 0) + 1;
    window.hits.set(counted, hits);
    return record(hits, limit, secondsLeft);
  }
}
const OVERFLOW = '\u0000overflow';

/** Counters shared by every gateway replica (REDIS_URL); this replica's own while Redis is away. */
export class RedisWindowStorage implements ThrottlerStorage {
  private readonly fallback = new MemoryWindowStorage();

  constructor(private readonly store: RedisOrMemory) {}

  static connect(url: string, timeoutMs: number, namespace: string): RedisWindowStorage {
    return new RedisWindowStorage(new RedisOrMemory(connectRedis(url, timeoutMs, namespace), 'rate_limit'));
  }

  increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    return this.store.run(
      async (redis) => {
        const { start, secondsLeft } = windowOf(ttl);
        const counterKey = `ratelimit:${key}:${start}`;
        const [[, hits]] = (await redis.multi().incr(counterKey).pexpire(counterKey, ttl + 1_000).exec()) as [[unknown, number]];
        return record(hits, limit, secondsLeft);
      },
      () => this.fallback.increment(key, ttl, limit),
    );
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
