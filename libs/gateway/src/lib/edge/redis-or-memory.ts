import { Logger } from '@nestjs/common';
import { rateLimitMetrics } from '@gatehouse/platform';
import IORedis, { type Redis } from 'ioredis';

/** After a failure, how long this replica stays on its memory before trying Redis again. */
const RETRY_AFTER_MS = 1_000;

/**
 * A Redis connection that never makes a request wait: no offline queue, no retried commands, and
 * a call that takes longer than `timeoutMs` (REDIS_TIMEOUT_MS) fails, so the replica's own memory
 * answers instead.
 */
export function connectRedis(url: string, timeoutMs: number, namespace: string): Redis {
  return new IORedis(url, {
    // Every key under BUS_NAMESPACE (`<namespace>:ratelimit:…`, `<namespace>:idempotency:…`): deployments sharing a Redis count apart.
    keyPrefix: `${namespace}:`,
    commandTimeout: timeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(250 * attempt, 2_000),
  });
}

/**
 * Shared state in Redis with this replica's memory as the fallback: while Redis is unreachable,
 * frozen or slow, calls go to memory at once (say so in the log and in
 * `gatehouse_rate_limit_fallback`), and Redis is tried again a second later. Limits are then
 * counted per replica, answers replayed per replica: degraded, never down.
 */
export class RedisOrMemory {
  private readonly logger = new Logger(RedisOrMemory.name);
  private awayUntil = 0;
  private away = false;

  constructor(
    readonly redis: Redis,
    private readonly use: 'rate_limit' | 'idempotency',
  ) {
    // Connection errors are reported by the calls that meet them; without a listener ioredis prints each retry.
    redis.on('error', () => undefined);
  }

  async run<T>(viaRedis: (redis: Redis) => Promise<T>, viaMemory: () => Promise<T>): Promise<T> {
    if (this.redis.status !== 'ready' || Date.now() < this.awayUntil) {
      this.fallBack(`Redis is ${this.redis.status === 'ready' ? 'failing' : this.redis.status}`);
      return viaMemory();
    }
    try {
      const value = await viaRedis(this.redis);
      if (this.away) {
        this.away = false;
        if (this.use === 'rate_limit') rateLimitMetrics.fallback.set(0);
        this.logger.log(`Redis answers again: ${this.use} shared by every replica again`);
      }
      return value;
    } catch (err) {
      rateLimitMetrics.storeErrors.inc({ use: this.use });
      this.awayUntil = Date.now() + RETRY_AFTER_MS;
      this.fallBack(err instanceof Error ? err.message : String(err));
      return viaMemory();
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private fallBack(reason: string): void {
    if (this.away) return;
    this.away = true;
    if (this.use === 'rate_limit') rateLimitMetrics.fallback.set(1);
    this.logger.warn(`Redis unavailable (${reason}): ${this.use === 'rate_limit' ? 'rate limits counted per replica' : 'idempotent answers kept per replica'} until it answers again`);
  }
}
