import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { AppError } from '@gatehouse/platform';
import type { FastifyReply } from 'fastify';
import { RATE_LIMITS } from './credentials';

/** Fixed 60-second windows (decisions C2). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** The three headers every counted answer carries. */
export function rateLimitHeaders(reply: FastifyReply, limit: number, totalHits: number, secondsLeft: number): void {
  void reply.header('X-RateLimit-Limit', limit).header('X-RateLimit-Remaining', Math.max(0, limit - totalHits)).header('X-RateLimit-Reset', secondsLeft);
}

/**
 * Counts what no route's guard sees (a path no route matches, a URL refused before routing)
 * against the caller's IP, in the same counters the edge guard's throttler uses.
 */
@Injectable()
export class UnroutedRateLimiter {
  constructor(@InjectThrottlerStorage() private readonly counters: ThrottlerStorage) {}

  /** Counts one call by IP and puts the headers on the reply; past the limit, 429 with `Retry-After`. */
  async count(ip: string, reply: FastifyReply): Promise<void> {
    const limit = RATE_LIMITS.default;
    const { totalHits, timeToExpire, isBlocked } = await this.counters.increment(`default:ip:${ip}`, RATE_LIMIT_WINDOW_MS, limit, RATE_LIMIT_WINDOW_MS, 'default');
    rateLimitHeaders(reply, limit, totalHits, timeToExpire);
    if (isBlocked) throw AppError.retryLater('rate_limited', `Too many requests: at most ${limit} a minute. Retry in ${timeToExpire} s.`, timeToExpire);
  }
}
