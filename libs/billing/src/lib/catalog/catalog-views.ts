import type { PriceView, ProductView } from '@gatehouse/contracts';
import type { Price } from './price.entity';
import type { Product } from './product.entity';

export function productView(product: Product): ProductView {
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    entitlements: product.entitlements,
    active: product.active,
    createdAt: product.createdAt.toISOString(),
    updatedAt: product.updatedAt.toISOString(),
  };
}

export function priceView(price: Price): PriceView {
  return {
    id: price.id,
    productId: price.productId,
    currency: price.currency,
    unitAmount: price.unitAmount,
    interval: price.interval,
    trialDays: price.trialDays,
    passHours: price.passHours,
    active: price.active,
    createdAt: price.createdAt.toISOString(),
  };
}
