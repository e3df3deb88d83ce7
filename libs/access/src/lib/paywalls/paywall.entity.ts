import type { PaywallConfig, PaywallCopy, PaywallPresentation, PaywallType } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A rule over a set of URL paths (decisions E4, E5). */
@Entity({ name: 'paywalls' })
export class Paywall {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  type: PaywallType;

  /** Normalised for the type: `{}`, `{limit, period}` or `{fields}`. */
  @Column({ type: 'jsonb' })
  config: PaywallConfig;

  @Column({ name: 'include_globs', type: 'text', array: true })
  includeGlobs: string[];

  @Column({ name: 'exclude_globs', type: 'text', array: true })
  excludeGlobs: string[];

  @Column({ name: 'segment_id', type: 'uuid', nullable: true })
  segmentId: string | null;

  /** The lowest priority of the paywalls that match a page applies. */
  @Column({ type: 'integer' })
  priority: number;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ type: 'text' })
  presentation: PaywallPresentation;

  @Column({ type: 'jsonb', nullable: true })
  copy: PaywallCopy | null;

  /** Billing's pass and single-article prices the paywall offers beside the subscription plans. */
  @Column({ name: 'one_time_price_ids', type: 'uuid', array: true })
  oneTimePriceIds: string[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
