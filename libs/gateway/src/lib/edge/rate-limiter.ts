import { Inject, Injectable, Logger } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { AppError } from '@gatehouse/platform';
import type { FastifyReply } from 'fastify';
import { RATE_LIMITS, type RateLimitClass } from './credentials';

const WINDOW_MS = 60_000;

/** Counts calls per identity and class in fixed 60-second windows (decisions C2). */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);

  constructor(@Inject(ThrottlerStorage) private readonly counters: ThrottlerStorage) {}

  /** Counts one call and puts the three headers on the reply; past the limit, 429 with `Retry-After`. */
  async count(limitClass: RateLimitClass, identity: string, reply: FastifyReply): Promise<void> {
    const limit = RATE_LIMITS[limitClass];
    let counted: Awaited<ReturnType<ThrottlerStorage['increment']>>;
    try {
      counted = await this.counters.increment(`${limitClass}:${identity}`, WINDOW_MS, limit, 0, limitClass);
    } catch (err) {
      // The counters' store being down must not take the API down with it.
      this.logger.warn(`Rate limit not applied, the counter store failed: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    const { totalHits, timeToExpire, isBlocked } = counted;
    void reply.header('X-RateLimit-Limit', limit);
    void reply.header('X-RateLimit-Remaining', Math.max(0, limit - totalHits));
    void reply.header('X-RateLimit-Reset', timeToExpire);
    if (isBlocked) {
      void reply.header('Retry-After', timeToExpire);
      throw new AppError('rate_limited', `Too many requests: at most ${limit} a minute. Retry in ${timeToExpire} s.`);
    }
  }
}
