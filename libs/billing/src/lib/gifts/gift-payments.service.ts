import { Injectable } from '@nestjs/common';
import { Events, type GiftVoidReason } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { Clock, isUuid } from '@gatehouse/platform';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { idOf } from '../subscriptions/processor-snapshot';
import { GiftMail } from './gift-mail.service';
import { Gift } from './gift.entity';

/**
 * What the processor says of a gift's payment, in the transaction of its inbound event: a paid
 * checkout makes the gift purchased (`gift.purchased`, and its email at once when its date has
 * come); a full refund before redemption voids it, also one that arrives before the completion
 * (and one staff's void asked for finds it voided already); a payment that arrives for a gift
 * staff cancelled before it was paid is given back. The caller resolved the publication.
 */
@Injectable()
export class GiftPayments {
  constructor(
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly mail: GiftMail,
    private readonly settings: ProcessorSettingsService,
  ) {}

  async paid(manager: EntityManager, publicationId: string, session: Stripe.Checkout.Session, paidAt: Date): Promise<string> {
    const gift = await manager.findOne(Gift, { where: { publicationId, processorSessionId: session.id }, lock: { mode: 'pessimistic_write' } });
    if (!gift) return 'ignored: no gift of this publication has this checkout';
    if (gift.status === 'voided' && gift.voidReason === 'cancelled' && session.payment_intent) {
      gift.processorPaymentIntentId = idOf(session.payment_intent);
      await this.refund(publicationId, gift.id, gift.processorPaymentIntentId);
      gift.voidReason = 'refunded';
      await manager.save(gift);
      return 'applied: the gift was cancelled before its payment, which is refunded';
    }
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

  /**
   * The whole payment of a gift given back at the processor, once however often it is asked (the
   * idempotency key is the gift's): staff's void of a paid gift, or a payment that came after it.
   */
  async refund(publicationId: string, giftId: string, paymentIntentId: string): Promise<void> {
    const client = await this.settings.requireClient(publicationId);
    await atProcessor('refund the gift', () =>
      client.refunds.create({ payment_intent: paymentIntentId, metadata: { giftId, publicationId } }, { idempotencyKey: `gift-refund:${giftId}` }),
    );
  }

  /** The one way a gift becomes void (a refund at the processor, or staff's void): its code is refused from now on, and forgotten. The caller holds the gift's row. */
  async void(manager: EntityManager, gift: Gift, reason: GiftVoidReason): Promise<void> {
    Object.assign(gift, { status: 'voided', voidedAt: this.clock.now(), voidReason: reason, codeSealed: null });
    await manager.save(gift);
  }
}
