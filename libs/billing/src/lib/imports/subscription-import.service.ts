import { Injectable } from '@nestjs/common';
import {
  ImportRequests,
  type ExportedSubscription,
  type ReplyOf,
  type RequestOf,
  type SubscriptionImport,
  type SubscriptionImportResult,
  type SubscriptionStatus,
  type TransferPlan,
} from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import Stripe from 'stripe';
import { DataSource, type EntityManager } from 'typeorm';
import { ProcessorCustomersService } from '../processor/processor-customers.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { newProcessorSubscription, newSubscription } from '../subscriptions/new-subscription';
import { snapshotOf, type ProcessorSnapshot } from '../subscriptions/processor-snapshot';
import { SubscriptionWriter } from '../subscriptions/subscription-writer.service';
import type { Subscription } from '../subscriptions/subscription.entity';

/** Processor look-ups of one batch at once: bounded, so a batch stays within its request's time at the processor's rate. */
const PROCESSOR_LOOKUPS_AT_ONCE = 8;

type Found<T> = { found: T } | { reason: string };

/** What a batch's readers hold already, by grant (`customer/price`) and by processor subscription id (to its customer; null for a reader still to be created, in a dry run). */
interface Held {
  grants: Set<string>;
  linked: Map<string, string | null>;
}

/** A row that passed every check, ready to store. */
interface Accepted {
  row: SubscriptionImport;
  subscription: Subscription | null;
  processorCustomerId: string | null;
}

const planKey = (plan: TransferPlan) => JSON.stringify([plan.product, plan.interval, plan.currency, plan.amount]);
const describePlan = (plan: TransferPlan) => `"${plan.product}" at ${plan.amount} ${plan.currency} ${plan.interval === 'lifetime' ? 'for life' : `a ${plan.interval}`}`;

/**
 * Billing's part of an import (docs/imports.md): each row's subscription linked to the processor
 * subscription it names (looked up there), or granted by hand until its end; the customer's
 * processor account linked when named. A subscription already here is left as it is, so a rerun
 * changes nothing. A batch is stored in one transaction, in one statement per table.
 */
@Injectable()
export class SubscriptionImportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: ProcessorSettingsService,
    private readonly processorCustomers: ProcessorCustomersService,
    private readonly writer: SubscriptionWriter,
    private readonly clock: Clock,
  ) {}

  async import(request: RequestOf<typeof ImportRequests.ImportSubscriptions>): Promise<ReplyOf<typeof ImportRequests.ImportSubscriptions>> {
    const { publicationId, rows } = request;
    const prices = await this.pricesByPlan(publicationId);
    const processor = await this.processorLookups(publicationId, rows);
    return this.dataSource.transaction(async (manager) => {
      const results: SubscriptionImportResult[] = [];
      const accepted: Accepted[] = [];
      const held = await this.held(manager, publicationId, rows);
      for (const row of rows) {
        const checked = this.check(publicationId, row, prices, processor, held);
        if ('reason' in checked) results.push({ line: row.line, outcome: 'failed', reason: checked.reason });
        else if (checked.found === 'unchanged' || checked.found === 'none') results.push({ line: row.line, outcome: checked.found });
        else {
          accepted.push(checked.found);
          results.push({ line: row.line, outcome: checked.found.subscription ? 'created' : 'none' });
        }
      }
      if (!request.dryRun) await this.store(manager, publicationId, accepted);
      return { results };
    });
  }

  async exportOf(request: RequestOf<typeof ImportRequests.ExportSubscriptions>): Promise<ReplyOf<typeof ImportRequests.ExportSubscriptions>> {
    const { publicationId, customerIds } = request;
    const rows: Array<{
      customer_id: string;
      plan: TransferPlan | null;
      current_period_end: Date | null;
      source: string | null;
      processor_subscription_id: string | null;
      processor_customer_id: string | null;
    }> = await this.dataSource.query(
      `SELECT c.customer_id, s.current_period_end, s.source, s.processor_subscription_id, pc.processor_customer_id,
              CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('product', p.name, 'interval', pr.interval, 'currency', pr.currency, 'amount', pr.unit_amount) END AS plan
       FROM unnest($2::uuid[]) AS c(customer_id)
         LEFT JOIN subscriptions s ON s.publication_id = $1 AND s.customer_id = c.customer_id AND s.status <> 'cancelled'
           AND NOT (s.source = 'manual' AND s.current_period_end IS NOT NULL AND s.current_period_end <= $3)
         LEFT JOIN prices pr ON pr.id = s.price_id
         LEFT JOIN products p ON p.id = pr.product_id
         LEFT JOIN processor_customers pc ON pc.publication_id = $1 AND pc.customer_id = c.customer_id
       ORDER BY c.customer_id, p.name, pr.interval, pr.currency, pr.unit_amount, s.current_period_end, s.processor_subscription_id`,
      [publicationId, customerIds, this.clock.now()],
    );
    const subscriptions = rows.map(
      (row): ExportedSubscription => ({
        customerId: row.customer_id,
        plan: row.plan,
        // A processor subscription's period is the processor's to say; a manual grant's end is its own.
        currentPeriodEnd: row.source === 'manual' ? (row.current_period_end?.toISOString() ?? null) : null,
        processorCustomerId: row.processor_customer_id,
        processorSubscriptionId: row.processor_subscription_id,
      }),
    );
    return { subscriptions };
  }

  private check(
    publicationId: string,
    row: SubscriptionImport,
    prices: Map<string, { id: string; processorPriceId: string | null }>,
    processor: Map<string, Found<Stripe.Subscription | Stripe.Customer>>,
    held: Held,
  ): Found<Accepted | 'unchanged' | 'none'> {
    const account = row.processorCustomerId ? processor.get(row.processorCustomerId) : undefined;
    if (account && 'reason' in account) return account;
    const price = row.plan ? prices.get(planKey(row.plan)) : undefined;
    if (row.plan && !price) return { reason: `no price of ${describePlan(row.plan)} in this publication: create it first` };

    if (row.processorSubscriptionId) {
      const lookup = processor.get(row.processorSubscriptionId) ?? { reason: `the processor was not asked about ${row.processorSubscriptionId}` };
      if ('reason' in lookup) return lookup;
      const snapshot = snapshotOf(lookup.found as Stripe.Subscription);
      if (row.processorCustomerId && snapshot.processorCustomerId !== row.processorCustomerId) {
        return { reason: `processor subscription ${row.processorSubscriptionId} belongs to processor customer ${snapshot.processorCustomerId}, not ${row.processorCustomerId}` };
      }
      const status = snapshot.status;
      if (!status) return { reason: `processor subscription ${row.processorSubscriptionId} is not paid for yet (incomplete)` };
      const holder = held.linked.get(row.processorSubscriptionId);
      if (holder !== undefined) {
        return holder === row.customerId ? { found: 'unchanged' } : { reason: `processor subscription ${row.processorSubscriptionId} is another customer's here` };
      }
      const priceId = price?.id ?? [...prices.values()].find((known) => known.processorPriceId !== null && known.processorPriceId === snapshot.processorPriceId)?.id;
      if (!priceId) return { reason: `name the plan: the price of processor subscription ${row.processorSubscriptionId} is not one of this publication's` };
      held.linked.set(row.processorSubscriptionId, row.customerId);
      return { found: { row, subscription: this.linked(publicationId, row, priceId, { ...snapshot, status }), processorCustomerId: snapshot.processorCustomerId } };
    }

    // No price here means no plan (a plan without a price was refused above).
    if (!price) return row.processorCustomerId ? { found: { row, subscription: null, processorCustomerId: row.processorCustomerId } } : { found: 'none' };
    const now = this.clock.now();
    const end = row.currentPeriodEnd === null ? null : new Date(row.currentPeriodEnd);
    if (end && end <= now) return { reason: 'current_period_end has passed: only grants still running are imported' };
    if (row.customerId) {
      const key = `${row.customerId}/${price.id}`;
      if (held.grants.has(key)) return { found: 'unchanged' };
      held.grants.add(key);
    }
    const grant = newSubscription({ publicationId, customerId: row.customerId ?? '', priceId: price.id, status: 'active', source: 'manual', currentPeriodStart: now, currentPeriodEnd: end, now });
    return { found: { row, subscription: grant, processorCustomerId: row.processorCustomerId } };
  }

  /** What the batch's readers hold already (live manual grants by price, processor subscriptions by id), in two queries; rows of the batch add to it as they are accepted. */
  private async held(manager: EntityManager, publicationId: string, rows: SubscriptionImport[]): Promise<Held> {
    const customerIds = [...new Set(rows.flatMap((row) => (row.customerId ? [row.customerId] : [])))];
    const processorIds = rows.flatMap((row) => (row.processorSubscriptionId ? [row.processorSubscriptionId] : []));
    const grants: Array<{ customer_id: string; price_id: string }> = await manager.query(
      `SELECT customer_id, price_id FROM subscriptions WHERE publication_id = $1 AND customer_id = ANY($2) AND source = 'manual'
         AND status <> 'cancelled' AND (current_period_end IS NULL OR current_period_end > $3)`,
      [publicationId, customerIds, this.clock.now()],
    );
    const linked: Array<{ processor_subscription_id: string; customer_id: string }> = await manager.query(
      'SELECT processor_subscription_id, customer_id FROM subscriptions WHERE publication_id = $1 AND processor_subscription_id = ANY($2)',
      [publicationId, processorIds],
    );
    return {
      grants: new Set(grants.map((row) => `${row.customer_id}/${row.price_id}`)),
      linked: new Map(linked.map((row) => [row.processor_subscription_id, row.customer_id])),
    };
  }

  private linked(publicationId: string, row: SubscriptionImport, priceId: string, snapshot: ProcessorSnapshot & { status: SubscriptionStatus }): Subscription {
    const now = this.clock.now();
    return newProcessorSubscription({ publicationId, customerId: row.customerId ?? '', priceId, now }, snapshot, now);
  }

  private async store(manager: EntityManager, publicationId: string, accepted: Accepted[]): Promise<void> {
    const subscriptions = accepted.flatMap((item) => (item.subscription ? [item.subscription] : []));
    await this.writer.insertAll(manager, publicationId, subscriptions);
    for (const item of accepted) {
      if (item.processorCustomerId && item.row.customerId) await this.processorCustomers.learn(manager, publicationId, item.row.customerId, item.processorCustomerId);
    }
  }

  /** Every price of the publication by the plan that names it, an active one first when two do. */
  private async pricesByPlan(publicationId: string): Promise<Map<string, { id: string; processorPriceId: string | null }>> {
    const rows: Array<{ id: string; product: string; interval: TransferPlan['interval']; currency: string; unit_amount: number; processor_price_id: string | null }> =
      await this.dataSource.query(
        `SELECT pr.id, p.name AS product, pr.interval, pr.currency, pr.unit_amount, pr.processor_price_id
         FROM prices pr JOIN products p ON p.id = pr.product_id
         WHERE pr.publication_id = $1 ORDER BY pr.active AND p.active, pr.created_at`,
        [publicationId],
      );
    return new Map(
      rows.map((row) => [planKey({ product: row.product, interval: row.interval, currency: row.currency, amount: row.unit_amount }), { id: row.id, processorPriceId: row.processor_price_id }]),
    );
  }

  /** The processor subscriptions and customers the rows name, each looked up once at the processor. */
  private async processorLookups(publicationId: string, rows: SubscriptionImport[]): Promise<Map<string, Found<Stripe.Subscription | Stripe.Customer>>> {
    const ids = [...new Set(rows.flatMap((row) => [row.processorSubscriptionId, row.processorCustomerId].filter((id): id is string => id !== null)))];
    const found = new Map<string, Found<Stripe.Subscription | Stripe.Customer>>();
    if (ids.length === 0) return found;
    const client = await this.settings.client(publicationId);
    if (!client) {
      for (const id of ids) found.set(id, { reason: 'the publication has no payment processor settings to look processor ids up with' });
      return found;
    }
    const queue = [...ids];
    const lookUp = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) found.set(id, await lookUpAtProcessor(client, id));
    };
    await Promise.all(Array.from({ length: Math.min(PROCESSOR_LOOKUPS_AT_ONCE, ids.length) }, lookUp));
    return found;
  }
}

async function lookUpAtProcessor(client: Stripe, id: string): Promise<Found<Stripe.Subscription | Stripe.Customer>> {
  const isSubscription = id.startsWith('sub_');
  const kind = isSubscription ? 'subscription' : 'customer';
  try {
    const object = isSubscription ? await client.subscriptions.retrieve(id) : await client.customers.retrieve(id);
    if ('deleted' in object && object.deleted) return { reason: `the processor's customer ${id} is deleted` };
    return { found: object as Stripe.Subscription | Stripe.Customer };
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError && err.statusCode === 404) return { reason: `the processor has no ${kind} ${id}` };
    // Anything else is the processor's trouble, not the row's: the batch fails and is tried again.
    throw err instanceof Stripe.errors.StripeError ? new AppError('processor_error', `The payment processor failed to look up ${kind} ${id}.`) : err;
  }
}
