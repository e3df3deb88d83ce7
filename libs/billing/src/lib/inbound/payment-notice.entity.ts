import type { PaymentEmailKind } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A payment email billing asked identity to send: one per subject (an invoice, a card) and kind, ever. */
@Entity({ name: 'payment_notices' })
export class PaymentNotice {
  @PrimaryColumn({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  /** The processor's invoice id, or for `card_expiring` the card's id and expiry. */
  @PrimaryColumn({ name: 'subject_id', type: 'text' })
  subjectId: string;

  @PrimaryColumn({ type: 'text' })
  kind: PaymentEmailKind;

  @Column({ name: 'customer_id', type: 'uuid' })
  customerId: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
