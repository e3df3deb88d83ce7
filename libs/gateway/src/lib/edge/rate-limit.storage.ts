import type { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';

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

/** Counters of this gateway process only (no REDIS_URL). */
export class MemoryWindowStorage implements ThrottlerStorage {
  private readonly counters = new Map<string, { start: number; hits: number }>();

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const { start, secondsLeft } = windowOf(ttl);
    const counter = this.counters.get(key);
    const hits = counter && counter.start === start ? counter.hits + 1 : 1;
    this.counters.set(key, { start, hits });
    if (this.counters.size > 100_000) this.evictBefore(start);
    return record(hits, limit, secondsLeft);
  }

  private evictBefore(start: number): void {
    for (const [key, counter] of this.counters) if (counter.start < start) this.counters.delete(key);
  }
}

/** Counters shared by every gateway replica (REDIS_URL). */
export class RedisWindowStorage implements ThrottlerStorage {
  constructor(private readonly redis: Redis) {}

  static connect(url: string): RedisWindowStorage {
    return new RedisWindowStorage(new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }));
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const { start, secondsLeft } = windowOf(ttl);
    const counterKey = `ratelimit:${key}:${start}`;
    const [[, hits]] = (await this.redis.multi().incr(counterKey).pexpire(counterKey, ttl + 1_000).exec()) as [[unknown, number]];
    return record(hits, limit, secondsLeft);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
