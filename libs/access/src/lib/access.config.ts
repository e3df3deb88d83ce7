import { ServiceConfig } from '@gatehouse/platform';
import { IsInt, Max, Min } from 'class-validator';

export class AccessConfig extends ServiceConfig {
  /** Days a past_due subscriber keeps access (decisions E6). */
  @IsInt()
  @Min(0)
  PAST_DUE_GRACE_DAYS: number = 3;

  /**
   * How long an access check waits for billing's answer on a customer's subscriptions before it
   * decides with the last known answer, or as for a non-subscriber.
   */
  @IsInt({ message: 'must be a whole number of milliseconds from 50 to 5000' })
  @Min(50, { message: 'must be a whole number of milliseconds from 50 to 5000' })
  @Max(5000, { message: 'must be a whole number of milliseconds from 50 to 5000' })
  ENTITLEMENTS_TIMEOUT_MS: number = 1000;

  /** Days a reader's visit count is kept after their last visit. */
  @IsInt()
  @Min(1)
  VISITS_RETENTION_DAYS: number = 90;

  /** Days after which hourly statistics are compacted to daily figures. */
  @IsInt()
  @Min(2)
  STATS_COMPACT_AFTER_DAYS: number = 90;
}
