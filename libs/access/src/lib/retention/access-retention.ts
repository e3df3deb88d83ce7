import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { MeterPeriod } from '@gatehouse/contracts';
import { deleteInBatches, repeatEvery, runExclusively } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { AccessConfig } from '../access.config';
import { calendarPeriod } from '../meters/meter-period';

const RUN_EVERY_MS = 3600_000;
const DAY_MS = 24 * 3600_000;
const METER_PERIODS: MeterPeriod[] = ['day', 'week', 'month'];
const COUNTERS = ['checks_granted', 'checks_denied', 'shown', 'dismissed', 'converted'];
/** Days compacted per run, oldest first, each in its own short transaction. */
const DAYS_PER_RUN = 31;

export interface AccessPruned {
  meterViews: number;
  visits: number;
  /** Hourly rows folded into their day's row. */
  hoursCompacted: number;
}

/**
 * Keeps access's tables from growing without bound: meter views that no current meter period can
 * count any more, readers' visit counts idle past VISITS_RETENTION_DAYS, and hourly statistics
 * older than STATS_COMPACT_AFTER_DAYS folded into one row per day. Hourly, by one replica at a time.
 */
@Injectable()
export class AccessRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AccessRetention.name);
  private stop: () => void = () => undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: AccessConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = repeatEvery(RUN_EVERY_MS, () => this.prune(), (err) => this.logger.warn(`Pruning access data failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  onModuleDestroy(): void {
    this.stop();
  }

  /** One round; undefined when another replica is running it. */
  prune(): Promise<AccessPruned | undefined> {
    return runExclusively(this.dataSource, 'retention:access', async () => {
      const now = this.clock.now();
      // Views before the start of every current period (the month's, or a week begun last month) count for none.
      const meterCutoff = new Date(Math.min(...METER_PERIODS.map((period) => calendarPeriod(now, period).start.getTime())));
      const meterViews = await deleteInBatches(this.dataSource, 'meter_views', 'viewed_at < $1', [meterCutoff]);
      const visits = await deleteInBatches(this.dataSource, 'visits', 'last_visit_at < $1', [new Date(now.getTime() - this.config.VISITS_RETENTION_DAYS * DAY_MS)]);
      const hoursCompacted = await this.compactHours(new Date(now.getTime() - this.config.STATS_COMPACT_AFTER_DAYS * DAY_MS));
      return { meterViews, visits, hoursCompacted };
    });
  }

  /** Folds the hourly rows of each whole UTC day before `cutoff` into that day's first hour. */
  private async compactHours(cutoff: Date): Promise<number> {
    const dayStart = `date_trunc('day', hour, 'UTC')`;
    let compacted = 0;
    for (let day = 0; day < DAYS_PER_RUN; day++) {
      const [{ oldest }] = (await this.dataSource.query(
        `SELECT min(${dayStart}) AS oldest FROM hourly_stats WHERE hour <> ${dayStart} AND hour + interval '1 day' <= $1`,
        [cutoff],
      )) as Array<{ oldest: Date | null }>;
      if (!oldest) break;
      // One statement: the day's hourly rows go and their sums land in its first hour, atomically.
      const [{ count }] = (await this.dataSource.query(
        `WITH folded AS (
           DELETE FROM hourly_stats WHERE hour > $1 AND hour < $1::timestamptz + interval '1 day' RETURNING *
         ), merged AS (
           INSERT INTO hourly_stats (publication_id, hour, paywall_id, experiment_id, variant_id, ${COUNTERS.join(', ')})
           SELECT publication_id, $1, paywall_id, (array_agg(experiment_id))[1], variant_id, ${COUNTERS.map((c) => `sum(${c})`).join(', ')}
             FROM folded GROUP BY publication_id, paywall_id, variant_id
           ON CONFLICT (publication_id, hour, paywall_id, variant_id)
           DO UPDATE SET ${COUNTERS.map((c) => `${c} = hourly_stats.${c} + EXCLUDED.${c}`).join(', ')}
         )
         SELECT count(*) FROM folded`,
        [oldest],
      )) as Array<{ count: string }>;
      compacted += Number(count);
    }
    return compacted;
  }
}
