import type { PurchaseKind } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A pass or single article bought in a payment-mode checkout (issue #25 item 4): one per paid checkout. */
@Entity({ name: 'purchases' })
export class Purchase {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'customer_id', type: 'uuid' })
  customerId: string;

  @Column({ name: 'price_id', type: 'uuid' })
  priceId: string;

  @Column({ type: 'text' })
  kind: PurchaseKind;

  /** A single article: the page as the checkout named it; null for a pass. */
  @Column({ type: 'text', nullable: true })
  url: string | null;

  /** A single article: the page as access keys it (`pageKeyOf`); null for a pass. */
  @Column({ name: 'page_key', type: 'text', nullable: true })
  pageKey: string | null;

  @Column({ name: 'starts_at', type: 'timestamptz' })
  startsAt: Date;

  /** A pass: `startsAt` plus its price's hours; null for a single article (for good). */
  @Column({ name: 'ends_at', type: 'timestamptz', nullable: true })
  endsAt: Date | null;

  @Column({ name: 'processor_checkout_session_id', type: 'text' })
  processorCheckoutSessionId: string;

  @Column({ name: 'processor_payment_intent_id', type: 'text', nullable: true })
  processorPaymentIntentId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
