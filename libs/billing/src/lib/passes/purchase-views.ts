import type { PurchaseView } from '@gatehouse/contracts';
import type { Purchase } from './purchase.entity';

export function purchaseView(purchase: Purchase): PurchaseView {
  return {
    purchaseId: purchase.id,
    customerId: purchase.customerId,
    priceId: purchase.priceId,
    kind: purchase.kind,
    url: purchase.url,
    startsAt: purchase.startsAt.toISOString(),
    endsAt: purchase.endsAt?.toISOString() ?? null,
  };
}
