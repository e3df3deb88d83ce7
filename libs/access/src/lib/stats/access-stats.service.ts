import { Injectable } from '@nestjs/common';
import type { AccessCounts, AccessStats, AccessStatsRequest, FieldError } from '@gatehouse/contracts';
import { DataSource } from 'typeorm';
import { rejectInvalid } from '../shared/invalid';
import { ShareLinksService } from '../sharing/share-links.service';
import { RollupsService } from './rollups.service';

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** The longest range per interval: a month of hours, a year and a day of days. */
const MAX_RANGE_MS = { hour: 31 * DAY_MS, day: 366 * DAY_MS } as const;

const SUMS = `coalesce(sum(checks_granted), 0) AS "checksGranted", coalesce(sum(checks_denied), 0) AS "checksDenied", coalesce(sum(crawler_checks), 0) AS "crawlerChecks",
  coalesce(sum(shown), 0) AS shown, coalesce(sum(dismissed), 0) AS dismissed, coalesce(sum(converted), 0) AS converted`;

/** The counts of `counted` (see the per-variant query), zero where a variant has none. */
const COUNTED = `coalesce(c."checksGranted", 0) AS "checksGranted", coalesce(c."checksDenied", 0) AS "checksDenied", coalesce(c."crawlerChecks", 0) AS "crawlerChecks",
  coalesce(c.shown, 0) AS shown, coalesce(c.dismissed, 0) AS dismissed, coalesce(c.converted, 0) AS converted`;

type CountRow = Record<keyof AccessCounts, string | number>;

/** Reads the hourly rollups for the stats view (decisions H5): totals, a series, and per-paywall and per-variant counts. */
@Injectable()
export class AccessStatsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rollups: RollupsService,
    private readonly shareLinks: ShareLinksService,
  ) {}

  async stats(request: AccessStatsRequest): Promise<AccessStats> {
    const { interval, publicationId } = request;
    const { from, to } = checkedRange(request);
    // What this replica counted in memory is in the answer; other replicas' last second may not be.
    await this.rollups.flush();
    const range = [publicationId, from, to];
    const inRange = `publication_id = $1 AND hour >= $2 AND hour < $3`;
    const [totals] = await this.dataSource.query(`SELECT ${SUMS} FROM hourly_stats WHERE ${inRange} AND variant_id IS NULL`, range);
    const series: Array<CountRow & { start: Date }> = await this.dataSource.query(
      `SELECT bucket AS start, ${SUMS}
         FROM generate_series($2::timestamptz, $3::timestamptz - interval '1 microsecond', ('1 ' || $4)::interval) AS bucket
         LEFT JOIN hourly_stats ON ${inRange} AND variant_id IS NULL AND hour >= bucket AND hour < bucket + ('1 ' || $4)::interval
        GROUP BY bucket ORDER BY bucket`,
      [...range, interval],
    );
    const paywalls: Array<CountRow & { paywallId: string; name: string | null }> = await this.dataSource.query(
      `SELECT s.paywall_id AS "paywallId", p.name, ${SUMS}
         FROM (SELECT * FROM hourly_stats WHERE ${inRange} AND variant_id IS NULL AND paywall_id IS NOT NULL) s
         LEFT JOIN paywalls p ON p.id = s.paywall_id
        GROUP BY s.paywall_id, p.name ORDER BY p.name, s.paywall_id`,
      range,
    );
    // Every variant of each experiment counted in the range, in the experiment's own order (zeros
    // included), so its first variant is always there to compare the others against.
    const variants: Array<CountRow & { experimentId: string; variantId: string; paywallId: string; experimentName: string | null; variantName: string | null }> =
      await this.dataSource.query(
        `WITH counted AS (
           SELECT experiment_id, variant_id, paywall_id, ${SUMS}
             FROM hourly_stats WHERE ${inRange} AND variant_id IS NOT NULL
            GROUP BY experiment_id, variant_id, paywall_id)
         SELECT e.id AS "experimentId", v.value->>'id' AS "variantId", e.paywall_id AS "paywallId", e.name AS "experimentName",
                v.value->>'name' AS "variantName", v.position, ${COUNTED}
           FROM experiments e
          CROSS JOIN LATERAL jsonb_array_elements(e.variants) WITH ORDINALITY AS v(value, position)
           LEFT JOIN counted c ON c.experiment_id = e.id AND c.variant_id::text = v.value->>'id'
          WHERE e.publication_id = $1 AND e.id IN (SELECT experiment_id FROM counted)
         UNION ALL
         SELECT c.experiment_id, c.variant_id::text, c.paywall_id, NULL, NULL, 0, ${COUNTED}
           FROM counted c
          WHERE NOT EXISTS (SELECT 1 FROM experiments e WHERE e.id = c.experiment_id)
          ORDER BY "experimentName" NULLS LAST, "experimentId", position, "variantId"`,
        range,
      );
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      interval,
      totals: counts(totals),
      series: series.map((row) => ({ start: new Date(row.start).toISOString(), ...counts(row) })),
      paywalls: paywalls.map((row) => ({ paywallId: row.paywallId, name: row.name, ...counts(row) })),
      variants: variants.map((row) => ({
        experimentId: row.experimentId,
        variantId: row.variantId,
        paywallId: row.paywallId,
        experimentName: row.experimentName,
        variantName: row.variantName,
        ...counts(row),
      })),
      sharing: await this.shareLinks.counts(publicationId, from, to),
    };
  }
}

function checkedRange({ from, to, interval }: AccessStatsRequest): { from: Date; to: Date } {
  const errors: FieldError[] = [];
  const start = new Date(from);
  const end = new Date(to);
  if (Number.isNaN(start.getTime())) errors.push({ field: 'from', message: 'must be an ISO 8601 time' });
  if (Number.isNaN(end.getTime())) errors.push({ field: 'to', message: 'must be an ISO 8601 time' });
  if (interval !== 'day' && interval !== 'hour') errors.push({ field: 'interval', message: 'must be day or hour' });
  rejectInvalid(errors);
  if (end <= start) rejectInvalid([{ field: 'to', message: 'must be after from' }]);
  if (end.getTime() - start.getTime() > MAX_RANGE_MS[interval]) {
    rejectInvalid([{ field: 'to', message: `must be at most ${MAX_RANGE_MS[interval] / DAY_MS} days after from with ${interval} intervals` }]);
  }
  // The range starts with its first whole bucket, so the totals are the sum of the series.
  const bucketMs = interval === 'hour' ? HOUR_MS : DAY_MS;
  return { from: new Date(Math.floor(start.getTime() / bucketMs) * bucketMs), to: end };
}

function counts(row: CountRow): AccessCounts {
  return {
    checksGranted: Number(row.checksGranted),
    checksDenied: Number(row.checksDenied),
    crawlerChecks: Number(row.crawlerChecks),
    shown: Number(row.shown),
    dismissed: Number(row.dismissed),
    converted: Number(row.converted),
  };
}
