import type { PriceInterval } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Decisions F1: immutable but for `active`; `lifetime` is a one-time payment whose subscription never ends. */
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

  @Column({ type: 'boolean' })
  active: boolean;

  @Column({ name: 'processor_price_id', type: 'text', nullable: true })
  processorPriceId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
