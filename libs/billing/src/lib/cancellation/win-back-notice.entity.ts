import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A win-back email billing asked identity to send: one per cancelled subscription, ever. */
@Entity({ name: 'win_back_notices' })
export class WinBackNotice {
  @PrimaryColumn({ name: 'subscription_id', type: 'uuid' })
  subscriptionId: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ name: 'customer_id', type: 'uuid' })
  customerId: string;

  @Column({ name: 'offer_id', type: 'uuid' })
  offerId: string;

  @Column({ name: 'sent_at', type: 'timestamptz' })
  sentAt: Date;

  /** Whether identity queued the email: not for a customer erased (or gone) before their day came. */
  @Column({ name: 'queued', type: 'boolean', default: true })
  queued: boolean;
}
