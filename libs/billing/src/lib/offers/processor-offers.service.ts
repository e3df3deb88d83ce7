import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { atProcessor } from '../processor/processor-clients.service';
import type { Offer } from './offer.entity';

/**
 * An offer as the processor knows it: a coupon (the discount) and a promotion code (the code, its
 * limits) on it. A trial offer needs neither: the checkout asks for its trial days. Creating is
 * idempotent per offer id, so a retry after a failure finds the first ones.
 */
@Injectable()
export class ProcessorOffers {
  /** Gives a discount offer its processor ids; the caller stores them. */
  async ensure(client: Stripe, offer: Offer): Promise<void> {
    if (offer.kind === 'trial') return;
    const metadata = { offerId: offer.id, publicationId: offer.publicationId };
    const redeemBy = offer.endsAt ? Math.floor(offer.endsAt.getTime() / 1000) : undefined;
    if (!offer.processorCouponId) {
      const coupon = await atProcessor('create the coupon', () =>
        client.coupons.create(
          {
            name: offer.name.slice(0, 40),
            ...(offer.kind === 'percent' ? { percent_off: offer.percentOff as number } : { amount_off: offer.amountOff as number, currency: offer.currency as string }),
            duration: offer.duration ?? 'once',
            ...(offer.duration === 'repeating' ? { duration_in_months: offer.durationInMonths as number } : {}),
            ...(redeemBy ? { redeem_by: redeemBy } : {}),
            metadata,
          },
          { idempotencyKey: `coupon:${offer.id}` },
        ),
      );
      offer.processorCouponId = coupon.id;
    }
    if (!offer.processorPromotionCodeId) {
      const promotionCode = await atProcessor('create the promotion code', () =>
        client.promotionCodes.create(
          {
            promotion: { type: 'coupon', coupon: offer.processorCouponId as string },
            code: offer.code,
            ...(offer.maxRedemptions ? { max_redemptions: offer.maxRedemptions } : {}),
            ...(redeemBy ? { expires_at: redeemBy } : {}),
            ...(offer.newCustomersOnly ? { restrictions: { first_time_transaction: true } } : {}),
            metadata,
          },
          { idempotencyKey: `promotion-code:${offer.id}` },
        ),
      );
      offer.processorPromotionCodeId = promotionCode.id;
    }
  }

  async setActive(client: Stripe, processorPromotionCodeId: string, active: boolean): Promise<void> {
    await atProcessor('update the promotion code', () => client.promotionCodes.update(processorPromotionCodeId, { active }));
  }
}
