import type { GiftView } from '@gatehouse/contracts';
import type { Gift } from './gift.entity';

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** A gift as staff see it: never its code, nor the buyer's message, which is the recipient's. */
export function giftView(gift: Gift, product: { id: string; name: string }): GiftView {
  return {
    id: gift.id,
    status: gift.status,
    priceId: gift.priceId,
    productId: product.id,
    productName: product.name,
    months: gift.months,
    amount: gift.amount,
    currency: gift.currency,
    buyerEmail: gift.buyerEmail,
    buyerCustomerId: gift.buyerCustomerId,
    recipientEmail: gift.recipientEmail,
    recipientName: gift.recipientName,
    sendAt: gift.sendAt.toISOString(),
    emailedAt: iso(gift.emailedAt),
    purchasedAt: iso(gift.purchasedAt),
    redeemedAt: iso(gift.redeemedAt),
    redeemedBy: gift.redeemedBy,
    subscriptionId: gift.subscriptionId,
    voidedAt: iso(gift.voidedAt),
    voidReason: gift.voidReason,
    createdAt: gift.createdAt.toISOString(),
  };
}

/** What a price of `interval` costs for `months`: the monthly price times the months, a yearly one pro rata. */
export function giftAmount(unitAmount: number, interval: 'month' | 'year', months: number): number {
  return interval === 'year' ? Math.round((unitAmount * months) / 12) : unitAmount * months;
}

/** `months` calendar months after `start` (UTC), on the last day of a shorter month rather than past it. */
export function monthsAfter(start: Date, months: number): Date {
  const end = new Date(start);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}
