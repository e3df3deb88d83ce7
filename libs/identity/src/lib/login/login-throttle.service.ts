import { Injectable } from '@nestjs/common';
import { AppError, Clock } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, LessThanOrEqual, MoreThan } from 'typeorm';
import { LoginFailure } from './login-failure.entity';

const MAX_LOGIN_FAILURES = 10;
const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/**
 * Decisions C4: at most 10 failed logins per (publication, email) in any 15 minutes; then every
 * attempt, right password or not, answers 429 until the oldest failure leaves the window.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts the attempt as a failure before the password is checked, and under a lock per email,
   * so that concurrent guesses cannot all pass the check before any of them is recorded.
   * Returns the id to hand to `succeeded` when the password was right.
   */
  async begin(publicationId: string, email: string): Promise<string> {
    const now = this.clock.now();
    const windowStart = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`identity:login:${publicationId}:${email}`]);
      await manager.delete(LoginFailure, { publicationId, email, failedAt: LessThanOrEqual(windowStart) });
      const recent = await manager.find(LoginFailure, {
        where: { publicationId, email, failedAt: MoreThan(windowStart) },
        order: { failedAt: 'ASC' },
        take: MAX_LOGIN_FAILURES,
      });
      if (recent.length >= MAX_LOGIN_FAILURES) {
        const retryAfterMs = recent[0].failedAt.getTime() + LOGIN_FAILURE_WINDOW_MS - now.getTime();
        throw AppError.retryLater('rate_limited', `Too many failed logins for this email. Try again in ${Math.ceil(retryAfterMs / 1000)} seconds.`, retryAfterMs / 1000);
      }
      const id = randomUUID();
      await manager.insert(LoginFailure, { id, publicationId, email, failedAt: now });
      return id;
    });
  }

  async succeeded(attemptId: string): Promise<void> {
    await this.dataSource.getRepository(LoginFailure).delete({ id: attemptId });
  }
}
