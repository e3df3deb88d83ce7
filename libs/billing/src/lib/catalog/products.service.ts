import { Injectable } from '@nestjs/common';
import type { Page, PageRequest, ProductChanges, ProductView } from '@gatehouse/contracts';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { newestFirst, pageOf } from '@gatehouse/db';
import { EntitlementsAnnouncer } from '../subscriptions/entitlements-announcer.service';
import { productView } from './catalog-views';
import { ProcessorCatalog } from './processor-catalog.service';
import { Product } from './product.entity';
import { definedOnly } from '../shared/defined-only';

export interface NewProduct {
  name: string;
  description?: string | null;
  entitlements?: string[];
  active?: boolean;
}

/**
 * Decisions F1, H2. With processor settings saved, each change is made at the processor first
 * and stored only once it succeeded, so a refusal (502 processor_error) changes nothing here.
 */
@Injectable()
export class ProductsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly settings: ProcessorSettingsService,
    private readonly processorCatalog: ProcessorCatalog,
    private readonly entitlements: EntitlementsAnnouncer,
  ) {}

  list(publicationId: string, page: PageRequest): Promise<Page<ProductView>> {
    const query = this.dataSource.getRepository(Product).createQueryBuilder('product').where('product.publication_id = :publicationId', { publicationId });
    return pageOf(query, newestFirst(query.alias), page, productView);
  }

  async get(publicationId: string, productId: string): Promise<ProductView> {
    return productView(await this.find(publicationId, productId));
  }

  async create(publicationId: string, input: NewProduct): Promise<ProductView> {
    const now = this.clock.now();
    const product = this.dataSource.getRepository(Product).create({
      id: randomUUID(),
      publicationId,
      name: input.name,
      description: input.description ?? null,
      entitlements: input.entitlements ?? [],
      active: input.active ?? true,
      processorProductId: null,
      createdAt: now,
      updatedAt: now,
    });
    const client = await this.settings.client(publicationId);
    if (client) product.processorProductId = await this.processorCatalog.productId(client, product);
    await this.dataSource.getRepository(Product).insert(product);
    return productView(product);
  }

  async update(publicationId: string, productId: string, changes: ProductChanges): Promise<ProductView> {
    const product = await this.find(publicationId, productId);
    const client = product.processorProductId ? await this.settings.client(publicationId) : null;
    if (client && (changes.name !== undefined || changes.description !== undefined || changes.active !== undefined)) {
      await this.processorCatalog.updateProduct(client, product.processorProductId as string, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description ?? '' } : {}),
        ...(changes.active !== undefined ? { active: changes.active } : {}),
      });
    }
    const unlocksOtherPaywalls = changes.entitlements !== undefined && !sameMembers(changes.entitlements, product.entitlements);
    Object.assign(product, definedOnly(changes), { updatedAt: this.clock.now() });
    await this.dataSource.transaction(async (manager) => {
      await manager.save(product);
      if (unlocksOtherPaywalls) await this.entitlements.holdersOfProduct(manager, publicationId, productId);
    });
    return productView(product);
  }

  /** Refused (409) while a subscription, purchase or gift uses one of its prices, or an organisation grants it; archived at the processor, which keeps products with prices. */
  async delete(publicationId: string, productId: string): Promise<{ deleted: true }> {
    const product = await this.find(publicationId, productId);
    const [{ used }]: Array<{ used: boolean }> = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM subscriptions s JOIN prices p ON p.id = s.price_id WHERE p.product_id = $1)
           OR EXISTS (SELECT 1 FROM purchases u JOIN prices p ON p.id = u.price_id WHERE p.product_id = $1)
           OR EXISTS (SELECT 1 FROM gifts g JOIN prices p ON p.id = g.price_id WHERE p.product_id = $1)
           OR EXISTS (SELECT 1 FROM organisations o WHERE o.product_id = $1) AS used`,
      [productId],
    );
    if (used) throw new AppError('conflict', 'Subscriptions, purchases, gifts or organisations use this product: deactivate it instead (active: false).');
    const client = product.processorProductId ? await this.settings.client(publicationId) : null;
    if (client) await this.processorCatalog.updateProduct(client, product.processorProductId as string, { active: false });
    await this.dataSource.getRepository(Product).delete({ id: productId, publicationId });
    return { deleted: true };
  }

  async find(publicationId: string, productId: string): Promise<Product> {
    const product = isUuid(productId) ? await this.dataSource.getRepository(Product).findOneBy({ id: productId, publicationId }) : null;
    if (!product) throw new AppError('not_found', 'No such product.');
    return product;
  }
}

function sameMembers(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

