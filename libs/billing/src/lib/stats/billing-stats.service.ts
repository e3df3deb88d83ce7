import { Injectable } from '@nestjs/common';
import type { BillingStats, BillingStatsBucket, CancellationStats } from '@gatehouse/contracts';
import { DataSource } from 'typeorm';
import { AppError } from '@gatehouse/platform';

const BUCKET_MS = { hour: 3_600_000, day: 86_400_000 } as const;
const MAX_BUCKETS = 1_000;

/**
 * Billing's part of the stats view (decisions H5), in UTC buckets over [from, to):
 * - new subscriptions: those that became active or trialing for the first time (as `subscription.created` announced);
 * - cancelled subscriptions: those cancelled, by the time the cancellation took effect;
 * - active subscribers: customers holding a subscription that had started and was not cancelled at `to`;
 * - MRR at `to`: processor subscriptions live then and not in a trial now; a yearly price counts 1/12,
 *   lifetime prices and manual grants nothing (they bring no recurring revenue);
 * - checkouts completed in the range, per experiment variant they carried;
 * - offer redemptions: subscriptions started with an offer, by the time they became active, per offer;
 * - purchases: passes and single articles, by the time they were paid.
 * - gifts purchased (paid) and redeemed within the range.
 */
@Injectable()
export class BillingStatsService {
  constructor(private readonly dataSource: DataSource) {}

  async stats(publicationId: string, fromText: string, toText: string, interval: 'day' | 'hour'): Promise<BillingStats> {
    const { from, to } = range(fromText, toText, interval);
    const [created, cancelled, [subscribers], mrr, checkouts, redemptions, cancellation, [purchases], [gifts]] = await Promise.all([
      this.countByBucket('activated_at', publicationId, from, to, interval),
      this.countByBucket('cancelled_at', publicationId, from, to, interval),
      this.dataSource.query(
        `SELECT count(DISTINCT customer_id)::int AS n FROM subscriptions
         WHERE publication_id = $1 AND activated_at < $2 AND (cancelled_at IS NULL OR cancelled_at >= $2)`,
        [publicationId, to],
      ) as Promise<Array<{ n: number }>>,
      this.dataSource.query(
        `SELECT p.currency, round(sum(CASE p.interval WHEN 'year' THEN p.unit_amount / 12.0 ELSE p.unit_amount END))::bigint AS amount
         FROM subscriptions s JOIN prices p ON p.id = s.price_id
         WHERE s.publication_id = $1 AND s.source = 'processor' AND p.interval <> 'lifetime' AND s.status <> 'trialing'
           AND s.activated_at < $2 AND (s.cancelled_at IS NULL OR s.cancelled_at >= $2)
         GROUP BY p.currency ORDER BY p.currency`,
        [publicationId, to],
      ) as Promise<Array<{ currency: string; amount: string }>>,
      this.dataSource.query(
        `SELECT experiment_id, variant_id, count(*)::int AS n FROM checkout_sessions
         WHERE publication_id = $1 AND completed_at >= $2 AND completed_at < $3 AND experiment_id IS NOT NULL AND variant_id IS NOT NULL
         GROUP BY experiment_id, variant_id ORDER BY experiment_id, variant_id`,
        [publicationId, from, to],
      ) as Promise<Array<{ experiment_id: string; variant_id: string; n: number }>>,
      this.dataSource.query(
        `SELECT offer_id, offer_code, count(*)::int AS n FROM subscriptions
         WHERE publication_id = $1 AND activated_at >= $2 AND activated_at < $3 AND offer_id IS NOT NULL
         GROUP BY offer_id, offer_code ORDER BY n DESC, offer_code`,
        [publicationId, from, to],
      ) as Promise<Array<{ offer_id: string; offer_code: string; n: number }>>,
      this.cancellation(publicationId, from, to),
      this.dataSource.query(
        `SELECT count(*) FILTER (WHERE kind = 'pass')::int AS passes, count(*) FILTER (WHERE kind = 'single_article')::int AS articles FROM purchases
         WHERE publication_id = $1 AND starts_at >= $2 AND starts_at < $3`,
        [publicationId, from, to],
      ) as Promise<Array<{ passes: number; articles: number }>>,
      this.dataSource.query(
        `SELECT count(*) FILTER (WHERE purchased_at >= $2 AND purchased_at < $3)::int AS purchased,
                count(*) FILTER (WHERE redeemed_at >= $2 AND redeemed_at < $3)::int AS redeemed
         FROM gifts WHERE publication_id = $1`,
        [publicationId, from, to],
      ) as Promise<Array<{ purchased: number; redeemed: number }>>,
    ]);
    const buckets: BillingStatsBucket[] = bucketStarts(from, to, interval).map((start) => ({
      start: start.toISOString(),
      newSubscriptions: created.get(start.getTime()) ?? 0,
      cancelledSubscriptions: cancelled.get(start.getTime()) ?? 0,
    }));
    return {
      buckets,
      activeSubscribers: subscribers.n,
      mrr: mrr.map((row) => ({ currency: row.currency, amount: Number(row.amount) })),
      checkoutsByVariant: checkouts.map((row) => ({ experimentId: row.experiment_id, variantId: row.variant_id, checkouts: row.n })),
      offerRedemptions: redemptions.map((row) => ({ offerId: row.offer_id, code: row.offer_code, redemptions: row.n })),
      cancellation,
      purchases: { passes: purchases.passes, singleArticles: purchases.articles },
      gifts,
    };
  }

  /**
   * The answers readers gave in the cancellation flow in the range: per reason, cancellations and
   * readers kept by its save offer; per kind of save, offered (accepted or turned down) and
   * accepted; win-back email sent, and the subscriptions its offer started after it was sent.
   */
  private async cancellation(publicationId: string, from: Date, to: Date): Promise<CancellationStats> {
    const [reasons, saves, [winBack]] = await Promise.all([
      this.dataSource.query(
        `SELECT reason, count(*) FILTER (WHERE NOT accepted)::int AS cancellations, count(*) FILTER (WHERE accepted)::int AS saved FROM cancellation_answers
         WHERE publication_id = $1 AND answered_at >= $2 AND answered_at < $3 GROUP BY reason ORDER BY cancellations DESC, reason`,
        [publicationId, from, to],
      ) as Promise<CancellationStats['reasons']>,
      this.dataSource.query(
        `SELECT save_kind AS kind, count(*)::int AS offered, count(*) FILTER (WHERE accepted)::int AS accepted FROM cancellation_answers
         WHERE publication_id = $1 AND answered_at >= $2 AND answered_at < $3 AND save_kind IS NOT NULL GROUP BY save_kind ORDER BY save_kind`,
        [publicationId, from, to],
      ) as Promise<CancellationStats['saves']>,
      this.dataSource.query(
        `SELECT (SELECT count(*)::int FROM win_back_notices WHERE publication_id = $1 AND queued AND sent_at >= $2 AND sent_at < $3) AS sent,
                (SELECT count(DISTINCT s.id)::int FROM subscriptions s JOIN win_back_notices n
                   ON n.publication_id = s.publication_id AND n.customer_id = s.customer_id AND n.offer_id = s.offer_id AND s.activated_at >= n.sent_at
                 WHERE s.publication_id = $1 AND s.activated_at >= $2 AND s.activated_at < $3) AS conversions`,
        [publicationId, from, to],
      ) as Promise<Array<CancellationStats['winBack']>>,
    ]);
    return { reasons, saves, winBack };
  }

  private async countByBucket(column: 'activated_at' | 'cancelled_at', publicationId: string, from: Date, to: Date, interval: 'day' | 'hour'): Promise<Map<number, number>> {
    const rows: Array<{ bucket: Date; n: number }> = await this.dataSource.query(
      `SELECT date_trunc($2, ${column} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS bucket, count(*)::int AS n FROM subscriptions
       WHERE publication_id = $1 AND ${column} >= $3 AND ${column} < $4 GROUP BY 1`,
      [publicationId, interval, from, to],
    );
    return new Map(rows.map((row) => [row.bucket.getTime(), row.n]));
  }
}

function range(fromText: string, toText: string, interval: 'day' | 'hour'): { from: Date; to: Date } {
  if (!(interval in BUCKET_MS)) throw AppError.invalid('interval', 'must be day or hour');
  const from = new Date(fromText);
  const to = new Date(toText);
  if (Number.isNaN(from.getTime())) throw AppError.invalid('from', 'must be an ISO 8601 time');
  if (Number.isNaN(to.getTime())) throw AppError.invalid('to', 'must be an ISO 8601 time');
  if (to <= from) throw AppError.invalid('to', 'must be after from');
  if ((to.getTime() - from.getTime()) / BUCKET_MS[interval] > MAX_BUCKETS) throw AppError.invalid('to', `spans more than ${MAX_BUCKETS} ${interval}s`);
  return { from, to };
}

/** The UTC starts of the buckets covering [from, to), the first one holding `from`. */
function bucketStarts(from: Date, to: Date, interval: 'day' | 'hour'): Date[] {
  const size = BUCKET_MS[interval];
  const starts: Date[] = [];
  for (let t = Math.floor(from.getTime() / size) * size; t < to.getTime(); t += size) starts.push(new Date(t));
  return starts;
}
