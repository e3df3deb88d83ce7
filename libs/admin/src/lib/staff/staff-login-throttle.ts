import { Injectable } from '@nestjs/common';
import { AppError, Clock } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';

export const MAX_STAFF_LOGIN_FAILURES = 10;
const WINDOW_MS = 15 * 60 * 1000;

/**
 * At most 10 failed staff logins per email in any 15 minutes, then 429 with `Retry-After` for
 * that email whatever the password (as decisions C4 does for customers): the per-IP limit alone
 * lets an attacker with many addresses guess an admin's password.
 */
@Injectable()
export class StaffLoginThrottle {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Records the attempt as a failure before the password is checked, under a lock per email, so
   * concurrent guesses cannot all pass the count; `succeeded` takes it back.
   */
  async begin(email: string): Promise<string> {
    const now = this.clock.now();
    const windowStart = new Date(now.getTime() - WINDOW_MS);
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`admin:login:${email}`]);
      await manager.query('DELETE FROM login_failures WHERE email = $1 AND failed_at <= $2', [email, windowStart]);
      const recent: Array<{ failed_at: Date }> = await manager.query(
        'SELECT failed_at FROM login_failures WHERE email = $1 ORDER BY failed_at ASC LIMIT $2',
        [email, MAX_STAFF_LOGIN_FAILURES],
      );
      if (recent.length >= MAX_STAFF_LOGIN_FAILURES) {
        const seconds = (recent[0].failed_at.getTime() + WINDOW_MS - now.getTime()) / 1000;
        throw AppError.retryLater('rate_limited', `Too many failed logins for this email. Try again in ${Math.ceil(seconds)} seconds.`, seconds);
      }
      const id = randomUUID();
      await manager.query('INSERT INTO login_failures (id, email, failed_at) VALUES ($1, $2, $3)', [id, email, now]);
      return id;
    });
  }

  async succeeded(attemptId: string): Promise<void> {
    await this.dataSource.query('DELETE FROM login_failures WHERE id = $1', [attemptId]);
  }
}
