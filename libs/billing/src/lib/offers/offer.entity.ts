import type { OfferDuration, OfferKind } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An offer (docs/billing.md): immutable but for `name` and `active`, so a reader's terms never change. */
@Entity({ name: 'offers' })
export class Offer {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  /** Upper case. */
  @Column({ type: 'text' })
  code: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  kind: OfferKind;

  @Column({ name: 'percent_off', type: 'integer', nullable: true })
  percentOff: number | null;

  @Column({ name: 'amount_off', type: 'integer', nullable: true })
  amountOff: number | null;

  @Column({ type: 'text', nullable: true })
  currency: string | null;

  @Column({ type: 'text', nullable: true })
  duration: OfferDuration | null;

  @Column({ name: 'duration_in_months', type: 'integer', nullable: true })
  durationInMonths: number | null;

  @Column({ name: 'trial_days', type: 'integer', nullable: true })
  trialDays: number | null;

  /** Empty: every price. */
  @Column({ name: 'price_ids', type: 'uuid', array: true })
  priceIds: string[];

  @Column({ name: 'max_redemptions', type: 'integer', nullable: true })
  maxRedemptions: number | null;

  @Column({ name: 'starts_at', type: 'timestamptz', nullable: true })
  startsAt: Date | null;

  @Column({ name: 'ends_at', type: 'timestamptz', nullable: true })
  endsAt: Date | null;

  @Column({ name: 'new_customers_only', type: 'boolean' })
  newCustomersOnly: boolean;

  /** Access's segment whose readers alone may redeem it; null: every reader. */
  @Column({ name: 'segment_id', type: 'uuid', nullable: true })
  segmentId: string | null;

  @Column({ type: 'boolean' })
  active: boolean;

  @Column({ name: 'processor_coupon_id', type: 'text', nullable: true })
  processorCouponId: string | null;

  @Column({ name: 'processor_promotion_code_id', type: 'text', nullable: true })
  processorPromotionCodeId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
