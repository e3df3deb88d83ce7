import { Injectable } from '@nestjs/common';
import { Events, type GiftVoidReason } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { Clock, isUuid } from '@gatehouse/platform';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { idOf } from '../subscriptions/processor-snapshot';
import { GiftMail } from './gift-mail.service';
import { Gift } from './gift.entity';

/**
 * What the processor says of a gift's payment, in the transaction of its inbound event: a paid
 * checkout makes the gift purchased (`gift.purchased`, and its email at once when its date has
 * come); a full refund before redemption voids it, also one that arrives before the completion
 * (and one staff's void asked for finds it voided already).
 * The caller resolved the publication.
 */
@Injectable()
export class GiftPayments {
  constructor(
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly mail: GiftMail,
  ) {}

  async paid(manager: EntityManager, publicationId: string, session: Stripe.Checkout.Session, paidAt: Date): Promise<string> {
    const gift = await manager.findOne(Gift, { where: { publicationId, processorSessionId: session.id }, lock: { mode: 'pessimistic_write' } });
    if (!gift) return 'ignored: no gift of this publication has this checkout';
    if (gift.status !== 'pending') return `recorded: the gift is ${gift.status} already`;
    Object.assign(gift, { status: 'purchased', purchasedAt: paidAt, processorPaymentIntentId: session.payment_intent ? idOf(session.payment_intent) : null });
    await manager.save(gift);
    const price = await manager.findOneByOrFail(Price, { id: gift.priceId });
    await this.outbox.add(
      manager,
      Events.GiftPurchased,
      {
        giftId: gift.id,
        priceId: gift.priceId,
        productId: price.productId,
        months: gift.months,
        amount: gift.amount,
        currency: gift.currency,
        buyerCustomerId: gift.buyerCustomerId,
        sendAt: gift.sendAt.toISOString(),
      },
      publicationId,
    );
    if (gift.sendAt <= this.clock.now()) await this.mail.sendGift(manager, gift);
    return 'applied';
  }

  /** Found by its payment, or by the gift id the payment's metadata carries when the refund arrives before the checkout's completion (which then changes nothing). */
  async refunded(manager: EntityManager, publicationId: string, charge: Stripe.Charge): Promise<string> {
    if (!charge.refunded || !charge.payment_intent) return 'ignored: not refunded in full';
    const processorPaymentIntentId = idOf(charge.payment_intent);
    const giftId = charge.metadata?.['giftId'];
    const gift = await manager.findOne(Gift, {
      where: [{ publicationId, processorPaymentIntentId }, ...(isUuid(giftId) ? [{ publicationId, id: giftId }] : [])],
      lock: { mode: 'pessimistic_write' },
    });
    if (!gift) return 'ignored: no gift of this publication was paid with it';
    if (gift.status !== 'purchased' && gift.status !== 'pending') return `ignored: the gift is ${gift.status}`;
    gift.processorPaymentIntentId = processorPaymentIntentId;
    await this.void(manager, gift, 'refunded');
    return 'applied';
  }

  /** The one way a gift becomes void (a refund at the processor, or staff's void): its code is refused from now on, and forgotten. The caller holds the gift's row. */
  async void(manager: EntityManager, gift: Gift, reason: GiftVoidReason): Promise<void> {
    Object.assign(gift, { status: 'voided', voidedAt: this.clock.now(), voidReason: reason, codeSealed: null });
    await manager.save(gift);
  }
}
