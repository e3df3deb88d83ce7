import type { CancellationReason, SubscriptionSource, SubscriptionStatus } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'subscriptions' })
export class Subscription {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'customer_id', type: 'uuid' })
  customerId: string;

  @Column({ name: 'price_id', type: 'uuid' })
  priceId: string;

  @Column({ type: 'text' })
  status: SubscriptionStatus;

  @Column({ type: 'text' })
  source: SubscriptionSource;

  @Column({ name: 'current_period_start', type: 'timestamptz' })
  currentPeriodStart: Date;

  /** Null: never ends (a lifetime price, or a manual grant without an end). A gift's is fixed: it ends then, without renewal. */
  @Column({ name: 'current_period_end', type: 'timestamptz', nullable: true })
  currentPeriodEnd: Date | null;

  @Column({ name: 'cancel_at_period_end', type: 'boolean' })
  cancelAtPeriodEnd: boolean;

  @Column({ name: 'trial_start', type: 'timestamptz', nullable: true })
  trialStart: Date | null;

  @Column({ name: 'trial_end', type: 'timestamptz', nullable: true })
  trialEnd: Date | null;

  /** Why the reader cancelled (a CancellationReason), as they said here or in the processor's portal; null when nobody said. */
  @Column({ name: 'cancellation_reason', type: 'text', nullable: true })
  cancellationReason: CancellationReason | null;

  /** When it became past_due, for access's grace period; null in any other status. */
  @Column({ name: 'past_due_since', type: 'timestamptz', nullable: true })
  pastDueSince: Date | null;

  /** When it first became active or trialing, the moment `subscription.created` announced it; null before. */
  @Column({ name: 'activated_at', type: 'timestamptz', nullable: true })
  activatedAt: Date | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  /** While the processor pauses collection: when it resumes; null otherwise. */
  @Column({ name: 'paused_until', type: 'timestamptz', nullable: true })
  pausedUntil: Date | null;

  /** A price switch recorded for the period end (a downgrade); null when none. */
  @Column({ name: 'scheduled_price_id', type: 'uuid', nullable: true })
  scheduledPriceId: string | null;

  @Column({ name: 'processor_subscription_id', type: 'text', nullable: true })
  processorSubscriptionId: string | null;

  /** The checkout of a lifetime price, which the processor bills once and never as a subscription. */
  @Column({ name: 'processor_checkout_session_id', type: 'text', nullable: true })
  processorCheckoutSessionId: string | null;

  /** How recent the processor's state we hold is: events older than this are stale. */
  @Column({ name: 'processor_state_at', type: 'timestamptz', nullable: true })
  processorStateAt: Date | null;

  /** The offer it was started with (from the processor metadata our checkout set); null otherwise. */
  @Column({ name: 'offer_id', type: 'uuid', nullable: true })
  offerId: string | null;

  @Column({ name: 'offer_code', type: 'text', nullable: true })
  offerCode: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
