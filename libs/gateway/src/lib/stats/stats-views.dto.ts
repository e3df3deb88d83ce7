import { ApiProperty } from '@nestjs/swagger';
import {
  CANCELLATION_REASONS,
  SAVE_KINDS,
  STATS_INTERVALS,
  type CancellationReason,
  type CancellationStats,
  type Funnel,
  type SaveKind,
  type Significance,
  type Stats,
  type StatsBucket,
  type StatsInterval,
  type VariantStats,
} from '@gatehouse/contracts';

/* What `GET /api/v1/admin/stats` answers (decisions H5). */

class FunnelDto implements Funnel {
  @ApiProperty({ example: 1200 }) checksGranted: number;
  @ApiProperty({ example: 300 }) checksDenied: number;
  @ApiProperty({ example: 12, description: 'Checks the crawler policy decided; not in checksGranted or checksDenied.' }) crawlerChecks: number;
  @ApiProperty({ example: 280, description: 'Paywall impressions.' }) shown: number;
  @ApiProperty({ example: 200 }) dismissed: number;
  @ApiProperty({ example: 14 }) converted: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.05, description: '`converted / shown`; null without impressions.' }) conversionRate: number | null;
}

class StatsBucketDto extends FunnelDto implements StatsBucket {
  @ApiProperty({ format: 'date-time' }) start: string;
  @ApiProperty() newSubscriptions: number;
  @ApiProperty() cancelledSubscriptions: number;
}

class MrrDto {
  @ApiProperty({ example: 'eur' }) currency: string;
  @ApiProperty({ example: 45000, description: 'Minor units.' }) amount: number;
}

type StatsTotals = Stats['totals'];

class StatsTotalsDto extends FunnelDto implements StatsTotals {
  @ApiProperty() newSubscriptions: number;
  @ApiProperty() cancelledSubscriptions: number;
  @ApiProperty({ description: 'Customers holding a live subscription at `to`.' }) activeSubscribers: number;
  @ApiProperty({ type: [MrrDto], description: 'Per currency at `to`; yearly prices count 1/12, lifetime ones nothing.' }) mrr: MrrDto[];
}

class PaywallFunnelDto extends FunnelDto {
  @ApiProperty({ format: 'uuid' }) paywallId: string;
  @ApiProperty({ type: String, nullable: true, description: 'Null for a deleted paywall.' }) name: string | null;
}

class SignificanceDto implements Significance {
  @ApiProperty({ format: 'uuid' }) baselineVariantId: string;
  @ApiProperty() zScore: number;
  @ApiProperty({ description: 'Two-sided.' }) pValue: number;
  @ApiProperty({ description: '`pValue` below 0.05.' }) significant: boolean;
}

class VariantStatsDto extends FunnelDto implements VariantStats {
  @ApiProperty({ format: 'uuid' }) experimentId: string;
  @ApiProperty({ type: String, nullable: true }) experimentName: string | null;
  @ApiProperty({ format: 'uuid' }) variantId: string;
  @ApiProperty({ type: String, nullable: true }) variantName: string | null;
  @ApiProperty({ format: 'uuid' }) paywallId: string;
  @ApiProperty() checkouts: number;
  @ApiProperty({ type: Number, nullable: true, description: '`checkouts / shown`; null without impressions.' }) checkoutRate: number | null;
  @ApiProperty({ type: SignificanceDto, nullable: true, description: 'Against the first variant; null for it, or while either side has no impressions.' })
  significance: SignificanceDto | null;
}

class OfferRedemptionsDto {
  @ApiProperty({ format: 'uuid' }) offerId: string;
  @ApiProperty({ example: 'SPRING3' }) code: string;
  @ApiProperty({ description: 'Subscriptions started with the offer within the range.' }) redemptions: number;
}

class PurchaseCountsDto {
  @ApiProperty({ description: 'Time passes bought within the range.' }) passes: number;
  @ApiProperty({ description: 'Single articles bought within the range.' }) singleArticles: number;
}

class ShareCountsDto {
  @ApiProperty({ description: 'Share links subscribers created within the range.' }) linksCreated: number;
  @ApiProperty({ description: 'Reads a share link granted within the range.' }) opens: number;
  @ApiProperty({ description: 'Paywall conversions (`paywall_converted`) sent from a page opened by a share link within the range.' }) conversions: number;
}

class ReasonCountsDto {
  @ApiProperty({ enum: CANCELLATION_REASONS }) reason: CancellationReason;
  @ApiProperty({ description: 'Cancellations that gave the reason within the range.' }) cancellations: number;
  @ApiProperty({ description: "Readers who gave the reason and accepted its save offer instead." }) saved: number;
}

class SaveCountsDto {
  @ApiProperty({ enum: SAVE_KINDS }) kind: SaveKind;
  @ApiProperty({ description: 'Readers shown a save offer of the kind who answered (accepted it, or cancelled).' }) offered: number;
  @ApiProperty() accepted: number;
}

class WinBackCountsDto {
  @ApiProperty({ description: 'Win-back email sent within the range.' }) sent: number;
  @ApiProperty({ description: "Subscriptions started within the range with the win-back email's offer by a reader it was sent to." }) conversions: number;
}

class CancellationStatsDto implements CancellationStats {
  @ApiProperty({ type: [ReasonCountsDto], description: 'Per reason, most given first.' }) reasons: ReasonCountsDto[];
  @ApiProperty({ type: [SaveCountsDto] }) saves: SaveCountsDto[];
  @ApiProperty({ type: WinBackCountsDto }) winBack: WinBackCountsDto;
}

class GiftCountsDto {
  @ApiProperty({ description: 'Gifts paid for within the range.' }) purchased: number;
  @ApiProperty({ description: 'Gifts redeemed within the range.' }) redeemed: number;
}

export class StatsDto implements Stats {
  @ApiProperty({ format: 'date-time' }) from: string;
  @ApiProperty({ format: 'date-time' }) to: string;
  @ApiProperty({ enum: STATS_INTERVALS }) interval: StatsInterval;
  @ApiProperty({ type: StatsTotalsDto }) totals: StatsTotalsDto;
  @ApiProperty({ type: [StatsBucketDto], description: 'Every bucket of the range, oldest first.' }) series: StatsBucketDto[];
  @ApiProperty({ type: [PaywallFunnelDto] }) paywalls: PaywallFunnelDto[];
  @ApiProperty({ type: [VariantStatsDto] }) variants: VariantStatsDto[];
  @ApiProperty({ type: [OfferRedemptionsDto], description: 'Per offer, most redeemed first.' }) offers: OfferRedemptionsDto[];
  @ApiProperty({ type: PurchaseCountsDto, description: 'Passes and single articles (docs/billing.md#passes-and-single-articles).' }) purchases: PurchaseCountsDto;
  @ApiProperty({ type: ShareCountsDto, description: 'Shared articles (docs/access.md#shared-articles).' }) sharing: ShareCountsDto;
  @ApiProperty({ type: CancellationStatsDto, description: 'Cancellation reasons, save offers and win-back (docs/billing.md#cancellation-that-tries-to-save).' })
  cancellation: CancellationStatsDto;
  @ApiProperty({ type: GiftCountsDto, description: 'Gift subscriptions (docs/billing.md#gift-subscriptions).' }) gifts: GiftCountsDto;
}
