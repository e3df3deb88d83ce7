import type { PriceInterval } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Decisions F1: immutable but for `active`; `lifetime`, `pass` and `single_article` are paid once (PRICE_INTERVALS). */
@Entity({ name: 'prices' })
export class Price {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'product_id', type: 'uuid' })
  productId: string;

  @Column({ type: 'text' })
  currency: string;

  /** Minor units. */
  @Column({ name: 'unit_amount', type: 'integer' })
  unitAmount: number;

  @Column({ type: 'text' })
  interval: PriceInterval;

  @Column({ name: 'trial_days', type: 'integer' })
  trialDays: number;

  /** A pass: the hours it grants; null for any other interval. */
  @Column({ name: 'pass_hours', type: 'integer', nullable: true })
  passHours: number | null;

  @Column({ type: 'boolean' })
  active: boolean;

  @Column({ name: 'processor_price_id', type: 'text', nullable: true })
  processorPriceId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
