import { Injectable } from '@nestjs/common';
import { Events, IdentityRequests, pageKeyOf, type CustomerPurchaseView, type PurchaseEntitlement, type PurchaseKind } from '@gatehouse/contracts';
import { BusClient, Outbox } from '@gatehouse/bus';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { DataSource, In, type EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { Product } from '../catalog/product.entity';
import { EntitlementsAnnouncer } from '../subscriptions/entitlements-announcer.service';
import { idOf } from '../subscriptions/processor-snapshot';
import { purchaseView } from './purchase-views';
import { Purchase } from './purchase.entity';

const HOUR_MS = 3_600_000;

export interface PurchaseResult {
  outcome: string;
  purchase: Purchase | null;
}

/**
 * Passes and single articles (issue #25 item 4): what a paid payment-mode checkout of a `pass` or
 * `single_article` price buys, stored once per checkout, and what they grant for access.
 */
@Injectable()
export class PurchasesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly entitlements: EntitlementsAnnouncer,
    private readonly bus: BusClient,
  ) {}

  /**
   * The purchase a paid checkout made, in the caller's transaction (under the checkout's lock):
   * a pass from `paidAt` for its price's hours, a single article for good; `pass.purchased` or
   * `article.purchased` and the entitlements change with it. A second completion (the webhook
   * after the reader's return, a redelivery) finds it stored and changes nothing.
   */
  async record(manager: EntityManager, publicationId: string, customerId: string, price: Price & { interval: PurchaseKind }, session: Stripe.Checkout.Session, paidAt: Date): Promise<PurchaseResult> {
    const stored = await manager.findOneBy(Purchase, { publicationId, processorCheckoutSessionId: session.id });
    if (stored) return { outcome: 'recorded: the purchase is stored already', purchase: stored };
    const article = price.interval === 'single_article' ? articleOf(session.metadata?.['articleUrl']) : null;
    if (price.interval === 'single_article' && !article) return { outcome: 'recorded: a single article without its page', purchase: null };
    const purchase = manager.create(Purchase, {
      id: randomUUID(),
      publicationId,
      customerId,
      priceId: price.id,
      kind: price.interval,
      url: article?.url ?? null,
      pageKey: article?.pageKey ?? null,
      startsAt: paidAt,
      endsAt: price.interval === 'pass' ? new Date(paidAt.getTime() + (price.passHours as number) * HOUR_MS) : null,
      processorCheckoutSessionId: session.id,
      processorPaymentIntentId: session.payment_intent ? idOf(session.payment_intent) : null,
      createdAt: this.clock.now(),
    });
    await manager.insert(Purchase, purchase);
    await this.outbox.add(manager, purchase.kind === 'pass' ? Events.PassPurchased : Events.ArticlePurchased, purchaseView(purchase), publicationId);
    await this.entitlements.customer(manager, publicationId, customerId);
    return { outcome: 'applied', purchase };
  }

  /** Newest first, ended passes included, each with its product's name; 404 for a customer who is not in the publication. */
  async ofCustomer(publicationId: string, customerId: string): Promise<{ purchases: CustomerPurchaseView[] }> {
    if (!isUuid(customerId)) throw new AppError('not_found', 'No such customer.');
    await this.bus.request(IdentityRequests.GetCustomer, { publicationId, customerId });
    const { manager } = this.dataSource;
    const purchases = await manager.find(Purchase, { where: { publicationId, customerId }, order: { createdAt: 'DESC', id: 'DESC' } });
    const prices = purchases.length === 0 ? [] : await manager.findBy(Price, { id: In([...new Set(purchases.map((purchase) => purchase.priceId))]) });
    const products = prices.length === 0 ? [] : await manager.findBy(Product, { id: In([...new Set(prices.map((price) => price.productId))]) });
    const productName = (priceId: string) => products.find((product) => product.id === prices.find((price) => price.id === priceId)?.productId)?.name ?? '';
    return { purchases: purchases.map((purchase) => ({ ...purchaseView(purchase), productName: productName(purchase.priceId) })) };
  }

  /** The customer's passes that have not ended and their single articles, newest first, with what each unlocks. */
  async entitlementsOf(publicationId: string, customerId: string): Promise<PurchaseEntitlement[]> {
    if (!isUuid(customerId)) return [];
    const rows: Array<{ id: string; kind: PurchaseKind; ends_at: Date | null; page_key: string | null; entitlements: string[] }> = await this.dataSource.query(
      `SELECT u.id, u.kind, u.ends_at, u.page_key, p.entitlements::text[] AS entitlements
         FROM purchases u JOIN prices pr ON pr.id = u.price_id JOIN products p ON p.id = pr.product_id
        WHERE u.publication_id = $1 AND u.customer_id = $2 AND (u.ends_at IS NULL OR u.ends_at > $3)
        ORDER BY u.created_at DESC`,
      [publicationId, customerId, this.clock.now()],
    );
    return rows.map((row) => ({ kind: row.kind, purchaseId: row.id, endsAt: row.ends_at?.toISOString() ?? null, pageKey: row.page_key, paywallIds: row.entitlements }));
  }
}

/** The page a single-article checkout was started for (the gateway checked it is the publication's). */
function articleOf(raw: string | undefined): { url: string; pageKey: string } | null {
  if (!raw || !URL.canParse(raw)) return null;
  const pageKey = pageKeyOf(new URL(raw));
  return pageKey === null ? null : { url: raw, pageKey };
}
