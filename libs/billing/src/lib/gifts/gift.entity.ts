import type { GiftMonths, GiftStatus, GiftVoidReason } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A gift subscription bought once by a buyer for a recipient (docs/billing.md#gift-subscriptions). */
@Entity({ name: 'gifts' })
export class Gift {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  /** SHA-256 of the code: the code itself is a credential, known to the recipient's email alone. */
  @Column({ name: 'code_hash', type: 'text' })
  codeHash: string;

  /** The code, sealed with PROCESSOR_SETTINGS_KEY, until the recipient's email is queued; null after. */
  @Column({ name: 'code_sealed', type: 'text', nullable: true })
  codeSealed: string | null;

  @Column({ type: 'text' })
  status: GiftStatus;

  @Column({ name: 'price_id', type: 'uuid' })
  priceId: string;

  @Column({ type: 'integer' })
  months: GiftMonths;

  @Column({ type: 'integer' })
  amount: number;

  @Column({ type: 'text' })
  currency: string;

  @Column({ name: 'buyer_customer_id', type: 'uuid', nullable: true })
  buyerCustomerId: string | null;

  @Column({ name: 'buyer_email', type: 'text' })
  buyerEmail: string;

  @Column({ name: 'buyer_name', type: 'text' })
  buyerName: string;

  @Column({ name: 'recipient_email', type: 'text' })
  recipientEmail: string;

  @Column({ name: 'recipient_name', type: 'text' })
  recipientName: string;

  @Column({ type: 'text', nullable: true })
  message: string | null;

  @Column({ name: 'redeem_url', type: 'text', nullable: true })
  redeemUrl: string | null;

  @Column({ name: 'send_at', type: 'timestamptz' })
  sendAt: Date;

  @Column({ name: 'processor_session_id', type: 'text' })
  processorSessionId: string;

  @Column({ name: 'processor_payment_intent_id', type: 'text', nullable: true })
  processorPaymentIntentId: string | null;

  @Column({ name: 'purchased_at', type: 'timestamptz', nullable: true })
  purchasedAt: Date | null;

  @Column({ name: 'emailed_at', type: 'timestamptz', nullable: true })
  emailedAt: Date | null;

  @Column({ name: 'redeemed_at', type: 'timestamptz', nullable: true })
  redeemedAt: Date | null;

  @Column({ name: 'redeemed_by', type: 'uuid', nullable: true })
  redeemedBy: string | null;

  @Column({ name: 'subscription_id', type: 'uuid', nullable: true })
  subscriptionId: string | null;

  /** When the reader was reminded that the gift's subscription ends. */
  @Column({ name: 'reminded_at', type: 'timestamptz', nullable: true })
  remindedAt: Date | null;

  @Column({ name: 'voided_at', type: 'timestamptz', nullable: true })
  voidedAt: Date | null;

  @Column({ name: 'void_reason', type: 'text', nullable: true })
  voidReason: GiftVoidReason | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
