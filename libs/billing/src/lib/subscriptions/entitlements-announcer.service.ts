import { Injectable } from '@nestjs/common';
import { InternalEvents } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import type { EntityManager } from 'typeorm';

/** Tells access, in the transaction of the change, whose entitlements changed, so it refreshes its cache. */
@Injectable()
export class EntitlementsAnnouncer {
  constructor(private readonly outbox: Outbox) {}

  async customer(manager: EntityManager, publicationId: string, customerId: string): Promise<void> {
    await this.customers(manager, publicationId, [customerId]);
  }

  async customers(manager: EntityManager, publicationId: string, customerIds: string[]): Promise<void> {
    const distinct = [...new Set(customerIds)];
    await this.outbox.addAll(manager, InternalEvents.EntitlementsChanged, distinct.map((customerId) => ({ customerId })), publicationId);
  }

  /** Every customer whose live subscription or pass is to one of the product's prices: what they unlock just changed. */
  async holdersOfProduct(manager: EntityManager, publicationId: string, productId: string): Promise<void> {
    const holders: Array<{ customer_id: string }> = await manager.query(
      `SELECT s.customer_id FROM subscriptions s JOIN prices p ON p.id = s.price_id
       WHERE s.publication_id = $1 AND p.product_id = $2 AND s.status <> 'cancelled'
       UNION
       SELECT u.customer_id FROM purchases u JOIN prices p ON p.id = u.price_id
       WHERE u.publication_id = $1 AND p.product_id = $2 AND u.kind = 'pass'`,
      [publicationId, productId],
    );
    await this.customers(manager, publicationId, holders.map((holder) => holder.customer_id));
  }
}
