import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A checkout this service started, so its completion can be attributed (experiments, stats). */
@Entity({ name: 'checkout_sessions' })
export class CheckoutSession {
  @PrimaryColumn({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @PrimaryColumn({ name: 'processor_session_id', type: 'text' })
  processorSessionId: string;

  @Column({ name: 'customer_id', type: 'uuid' })
  customerId: string;

  @Column({ name: 'price_id', type: 'uuid' })
  priceId: string;

  @Column({ name: 'experiment_id', type: 'text', nullable: true })
  experimentId: string | null;

  @Column({ name: 'variant_id', type: 'text', nullable: true })
  variantId: string | null;

  @Column({ name: 'paywall_id', type: 'text', nullable: true })
  paywallId: string | null;

  @Column({ name: 'offer_id', type: 'uuid', nullable: true })
  offerId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
