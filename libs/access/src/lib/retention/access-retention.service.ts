import { Injectable } from '@nestjs/common';
import type { MeterPeriod } from '@gatehouse/contracts';
import { daysBefore, deleteInBatches, RetentionJob } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { AccessConfig } from '../access.config';
import { calendarPeriod } from '../meters/meter-period';

const METER_PERIODS: MeterPeriod[] = ['day', 'week', 'month'];
const COUNTERS = ['checks_granted', 'checks_denied', 'shown', 'dismissed', 'converted'];
/** Days compacted per run, oldest first, each in its own short transaction. */
const DAYS_PER_RUN = 31;
/** Organisations' readers' keys folded per statement. */
const FOLD_BATCH = 1_000;

export interface AccessPruned {
  meterViews: number;
  visits: number;
  /** Newsletter and data passes of readers gone as long. */
  passes: number;
  /** Hourly rows folded into their day's row. */
  hoursCompacted: number;
  /** Ids of recorded batches of gateway-answered checks, kept a day. */
  edgeCheckBatches: number;
  /** Readers' keys of organisations' stats past VISITS_RETENTION_DAYS, folded into their day's count. */
  organisationReaders: number;
}

/**
 * A pass stays while a reader who can use it has come back since the cutoff: its own key, or the
 * customer its visitor id is linked to (whose own visits are under `c:<id>`).
 */
const PASS_OF_READER_GONE = `passed_at < $1
  AND NOT EXISTS (
    SELECT 1 FROM visits
     WHERE visits.publication_id = visitor_passes.publication_id AND visits.reader_key = visitor_passes.reader_key AND visits.last_visit_at >= $1)
  AND NOT EXISTS (
    SELECT 1 FROM visitor_links AS link
      JOIN visits ON visits.publication_id = link.publication_id AND visits.reader_key = 'c:' || link.customer_id
     WHERE visitor_passes.reader_key LIKE 'v:%' AND link.publication_id = visitor_passes.publication_id
       AND link.visitor_id = substr(visitor_passes.reader_key, 3) AND visits.last_visit_at >= $1)`;

/**
 * Keeps access's tables from growing without bound: meter views that no current meter period can
 * count any more, readers' visit counts idle past VISITS_RETENTION_DAYS and the passes of readers
 * gone as long, organisations' readers' keys as old (folded into their day's count), and hourly
 * statistics older than STATS_COMPACT_AFTER_DAYS folded into one row per day.
 */
@Injectable()
export class AccessRetention extends RetentionJob<AccessPruned> {
  constructor(
    dataSource: DataSource,
    clock: Clock,
    private readonly config: AccessConfig,
  ) {
    super(dataSource, clock, 'access');
  }

  protected async round(now: Date): Promise<AccessPruned> {
    // Views before the start of every current period (the month's, or a week begun last month) count for none.
    const meterCutoff = new Date(Math.min(...METER_PERIODS.map((period) => calendarPeriod(now, period).start.getTime())));
    const meterViews = await deleteInBatches(this.dataSource, 'meter_views', 'viewed_at < $1', [meterCutoff]);
    const readersCutoff = daysBefore(now, this.config.VISITS_RETENTION_DAYS);
    const visits = await deleteInBatches(this.dataSource, 'visits', 'last_visit_at < $1', [readersCutoff]);
    const passes = await deleteInBatches(this.dataSource, 'visitor_passes', PASS_OF_READER_GONE, [readersCutoff]);
    const hoursCompacted = await this.compactHours(daysBefore(now, this.config.STATS_COMPACT_AFTER_DAYS));
    // A gateway sends a batch again within seconds; a day covers any outage it waits through.
    const edgeCheckBatches = await deleteInBatches(this.dataSource, 'edge_check_batches', 'received_at < $1', [daysBefore(now, 1)]);
    const organisationReaders = await this.foldOrganisationReaders(readersCutoff);
    return { meterViews, visits, passes, hoursCompacted, edgeCheckBatches, organisationReaders };
  }

  /**
   * The keys of the readers organisations let in on whole days before `cutoff` go; each day keeps
   * how many there were (`folded_readers` of its first hour), so its stats still count them, once
   * a day rather than once a range. In batches, each deleting and adding in one statement.
   */
  private async foldOrganisationReaders(cutoff: Date): Promise<number> {
    let folded = 0;
    for (;;) {
      const [{ count }] = (await this.dataSource.query(
        `WITH gone AS (
           DELETE FROM organisation_readers
            WHERE ctid = ANY(ARRAY(SELECT ctid FROM organisation_readers WHERE day + interval '1 day' <= $1 LIMIT ${FOLD_BATCH} FOR UPDATE SKIP LOCKED))
           RETURNING publication_id, organisation_id, day
         ), counted AS (
           INSERT INTO organisation_reads (publication_id, organisation_id, hour, folded_readers)
           SELECT publication_id, organisation_id, day, count(*) FROM gone GROUP BY publication_id, organisation_id, day
           ON CONFLICT (publication_id, organisation_id, hour) DO UPDATE SET folded_readers = organisation_reads.folded_readers + EXCLUDED.folded_readers
         )
         SELECT count(*) FROM gone`,
        [cutoff],
      )) as Array<{ count: string }>;
      folded += Number(count);
      if (Number(count) < FOLD_BATCH) return folded;
    }
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
