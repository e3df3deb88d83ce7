import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { atProcessor } from '../processor/processor-clients.service';
import type { Price } from './price.entity';
import type { Product } from './product.entity';

/**
 * Products and prices as the processor knows them. Creating one is idempotent per local id, so
 * a create retried after a failure finds the first one rather than making a second.
 */
@Injectable()
export class ProcessorCatalog {
  async productId(client: Stripe, product: Product): Promise<string> {
    if (product.processorProductId) return product.processorProductId;
    const created = await atProcessor('create the product', () =>
      client.products.create(
        {
          name: product.name,
          ...(product.description ? { description: product.description } : {}),
          active: product.active,
          metadata: { productId: product.id, publicationId: product.publicationId },
        },
        { idempotencyKey: `product:${product.id}` },
      ),
    );
    return created.id;
  }

  async priceId(client: Stripe, price: Price, processorProductId: string): Promise<string> {
    if (price.processorPriceId) return price.processorPriceId;
    const created = await atProcessor('create the price', () =>
      client.prices.create(
        {
          product: processorProductId,
          currency: price.currency,
          unit_amount: price.unitAmount,
          ...(price.interval === 'month' || price.interval === 'year' ? { recurring: { interval: price.interval } } : {}),
          active: price.active,
          metadata: { priceId: price.id, productId: price.productId, publicationId: price.publicationId },
        },
        { idempotencyKey: `price:${price.id}` },
      ),
    );
    return created.id;
  }

  async updateProduct(client: Stripe, processorProductId: string, changes: Stripe.ProductUpdateParams): Promise<void> {
    await atProcessor('update the product', () => client.products.update(processorProductId, changes));
  }

  async setPriceActive(client: Stripe, processorPriceId: string, active: boolean): Promise<void> {
    await atProcessor('update the price', () => client.prices.update(processorPriceId, { active }));
  }
}
