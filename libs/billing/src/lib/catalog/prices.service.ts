import { Injectable } from '@nestjs/common';
import { isOneTime, type Page, type NewPrice, type OfferedPriceView, type PageRequest, type PriceView } from '@gatehouse/contracts';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { DataSource, In } from 'typeorm';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { newestFirst, pageOf } from '@gatehouse/db';
import { priceView } from './catalog-views';
import { Price } from './price.entity';
import { ProcessorCatalog } from './processor-catalog.service';
import { Product } from './product.entity';
import { ProductsService } from './products.service';

/** Decisions F1, H2: prices are immutable but for `active`; made at the processor first when it is set up. */
@Injectable()
export class PricesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly settings: ProcessorSettingsService,
    private readonly processorCatalog: ProcessorCatalog,
    private readonly products: ProductsService,
  ) {}

  /** The active prices of the publication's active products, cheapest first, then oldest first. */
  async offer(publicationId: string): Promise<OfferedPriceView[]> {
    const products = await this.dataSource.getRepository(Product).findBy({ publicationId, active: true });
    if (products.length === 0) return [];
    const names = new Map(products.map((product) => [product.id, product.name]));
    const prices = await this.dataSource.getRepository(Price).find({
      where: { publicationId, active: true, productId: In([...names.keys()]) },
      order: { unitAmount: 'ASC', createdAt: 'ASC' },
    });
    return prices.map((price) => ({
      id: price.id,
      productId: price.productId,
      productName: names.get(price.productId) as string,
      currency: price.currency,
      unitAmount: price.unitAmount,
      interval: price.interval,
      trialDays: price.trialDays,
      passHours: price.passHours,
    }));
  }

  async list(publicationId: string, productId: string, page: PageRequest): Promise<Page<PriceView>> {
    await this.products.find(publicationId, productId);
    const query = this.dataSource.getRepository(Price).createQueryBuilder('price').where('price.product_id = :productId', { productId });
    return pageOf(query, newestFirst(query.alias), page, priceView);
  }

  async get(publicationId: string, priceId: string): Promise<PriceView> {
    return priceView(await this.find(publicationId, priceId));
  }

  async create(publicationId: string, productId: string, input: NewPrice): Promise<PriceView> {
    if ((input.interval === 'pass') !== (input.passHours !== undefined && input.passHours !== null)) {
      throw AppError.invalid('passHours', input.interval === 'pass' ? 'is required for a pass price' : 'is only for a pass price');
    }
    const product = await this.products.find(publicationId, productId);
    const price = this.dataSource.getRepository(Price).create({
      id: randomUUID(),
      publicationId,
      productId,
      currency: input.currency.toLowerCase(),
      unitAmount: input.unitAmount,
      interval: input.interval,
      trialDays: isOneTime(input.interval) ? 0 : (input.trialDays ?? 0),
      passHours: input.passHours ?? null,
      active: input.active ?? true,
      processorPriceId: null,
      createdAt: this.clock.now(),
    });
    const client = await this.settings.client(publicationId);
    if (client) await this.atProcessor(client, product, price);
    await this.dataSource.transaction(async (manager) => {
      if (product.processorProductId) await manager.update(Product, { id: product.id }, { processorProductId: product.processorProductId });
      await manager.insert(Price, price);
    });
    return priceView(price);
  }

  async setActive(publicationId: string, priceId: string, active: boolean): Promise<PriceView> {
    const price = await this.find(publicationId, priceId);
    const client = price.processorPriceId ? await this.settings.client(publicationId) : null;
    if (client) await this.processorCatalog.setPriceActive(client, price.processorPriceId as string, active);
    price.active = active;
    await this.dataSource.getRepository(Price).update({ id: price.id }, { active });
    return priceView(price);
  }

  /** Refused (409) while a subscription uses it; archived at the processor, which never deletes prices. */
  async delete(publicationId: string, priceId: string): Promise<{ deleted: true }> {
    const price = await this.find(publicationId, priceId);
    const [{ used }]: Array<{ used: boolean }> = await this.dataSource.query(
      'SELECT EXISTS (SELECT 1 FROM subscriptions WHERE price_id = $1) OR EXISTS (SELECT 1 FROM purchases WHERE price_id = $1) OR EXISTS (SELECT 1 FROM gifts WHERE price_id = $1) AS used',
      [priceId],
    );
    if (used) throw new AppError('conflict', 'Subscriptions, purchases or gifts use this price: deactivate it instead (active: false).');
    const client = price.processorPriceId ? await this.settings.client(publicationId) : null;
    if (client) await this.processorCatalog.setPriceActive(client, price.processorPriceId as string, false);
    await this.dataSource.getRepository(Price).delete({ id: priceId });
    return { deleted: true };
  }

  /**
   * Gives the price (and its product, made before processor settings existed) their processor ids,
   * creating them there when missing. The caller stores the ids.
   */
  async atProcessor(client: Stripe, product: Product, price: Price): Promise<void> {
    product.processorProductId = await this.processorCatalog.productId(client, product);
    price.processorPriceId = await this.processorCatalog.priceId(client, price, product.processorProductId);
  }

  async find(publicationId: string, priceId: string): Promise<Price> {
    const price = isUuid(priceId) ? await this.dataSource.getRepository(Price).findOneBy({ id: priceId, publicationId }) : null;
    if (!price) throw new AppError('not_found', 'No such price.');
    return price;
  }
}
