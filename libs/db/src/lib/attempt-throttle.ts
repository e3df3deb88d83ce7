import { AppError } from '@gatehouse/platform';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { DataSource, QueryRunner } from 'typeorm';

/** The table every throttle of a service counts in, created by the service's migration. */
export const THROTTLE_TABLE = 'throttle_counters';

export interface AttemptThrottleOptions {
  /** Names the counters of this throttle apart from the others in the table. */
  name: string;
  /** Attempts allowed per key in one window. */
  attempts: number;
  windowSeconds: number;
  /** What a refused attempt is told, before "Try again in N seconds." */
  refusal: string;
}

/**
 * At most `attempts` per key (an account, an address) in a window that starts at the key's first
 * attempt: past that, 429 `rate_limited` with `Retry-After` until the window ends. Counted in
 * PostgreSQL by rate-limiter-flexible in one atomic upsert, so concurrent attempts on any replica
 * cannot slip past the count; expired counters are deleted by the limiter itself.
 */
export class AttemptThrottle {
  private readonly limiter: RateLimiterPostgres;

  constructor(
    dataSource: DataSource,
    private readonly options: AttemptThrottleOptions,
  ) {
    this.limiter = new RateLimiterPostgres({
      storeClient: dataSource,
      storeType: 'typeorm',
      tableName: THROTTLE_TABLE,
      tableCreated: true,
      keyPrefix: options.name,
      points: options.attempts,
      duration: options.windowSeconds,
    });
  }

  /**
   * Counts an attempt before its outcome is known, so a guess is counted even when its answer is
   * never awaited; `succeeded` takes a successful one back when only failures should count.
   */
  async count(key: string): Promise<void> {
    try {
      await this.limiter.consume(key);
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      const seconds = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
      throw AppError.retryLater('rate_limited', `${this.options.refusal} Try again in ${seconds} seconds.`, seconds);
    }
  }

  async succeeded(key: string): Promise<void> {
    await this.limiter.reward(key, 1);
  }
}

/** The migration step that makes the table, for each service using a throttle. */
export async function createThrottleTable(runner: QueryRunner): Promise<void> {
  await runner.query(`CREATE TABLE ${THROTTLE_TABLE} (key text PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`);
}
