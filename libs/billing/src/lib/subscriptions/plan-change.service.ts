import { Injectable } from '@nestjs/common';
import { isOneTime, type PlanChangeLine, type PlanChangePreview, type PlanChangeRequest, type PlanChangeResult, type PlanChangeTiming } from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import type Stripe from 'stripe';
import { DataSource, type EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { PricesService } from '../catalog/prices.service';
import { ProductsService } from '../catalog/products.service';
import { Product } from '../catalog/product.entity';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { wholeSecond } from '../shared/time';
import { fromUnix, snapshotOf } from './processor-snapshot';
import { ProcessorSubscriptionSync } from './processor-subscription-sync.service';
import { changeableAtProcessor } from './subscription-scope';
import { SubscriptionWriter } from './subscription-writer.service';
import { subscriptionView } from './subscription-views';
import { Subscription } from './subscription.entity';
import { SubscriptionsService } from './subscriptions.service';

/** What a month of the price costs, to tell an upgrade from a downgrade across intervals. */
export function monthlyEquivalent(price: Pick<Price, 'unitAmount' | 'interval'>): number {
  return price.interval === 'year' ? price.unitAmount / 12 : price.unitAmount;
}

interface Planned {
  subscription: Subscription;
  processorSubscriptionId: string;
  from: Price;
  to: Price;
  product: Product;
  direction: PlanChangePreview['direction'];
  when: PlanChangeTiming;
}

/**
 * Switching a subscription to another price (issue #27, item 1). A change now is the processor's
 * `subscriptions.update` of the subscription item's price with `proration_behavior:
 * always_invoice`: the unused time of the old price is credited and the difference charged at
 * once; the preview is the processor's invoice preview of that very update, at the same proration
 * time. A change at the period end (the default for a downgrade) is recorded here and made by
 * {@link ScheduledPlanChanges} shortly before the period ends, without proration, so the renewal is
 * billed at the new price and nothing changes before.
 */
@Injectable()
export class PlanChangeService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly subscriptions: SubscriptionsService,
    private readonly prices: PricesService,
    private readonly products: ProductsService,
    private readonly settings: ProcessorSettingsService,
    private readonly sync: ProcessorSubscriptionSync,
    private readonly writer: SubscriptionWriter,
  ) {}

  async preview(request: PlanChangeRequest): Promise<PlanChangePreview> {
    const planned = await this.plan(request);
    if (planned.when === 'period_end') return this.atPeriodEnd(planned);
    const client = await this.settings.requireClient(request.publicationId);
    const { preview } = await this.previewNow(client, planned, this.prorationTime());
    // A price made before the processor was connected now has its processor twin: keep its id.
    await this.rememberProcessorIds(this.dataSource.manager, planned);
    return preview;
  }

  async change(request: PlanChangeRequest): Promise<PlanChangeResult> {
    const planned = await this.plan(request);
    if (planned.when === 'period_end') {
      const preview = this.atPeriodEnd(planned);
      const subscription = await this.dataSource.transaction(async (manager) => {
        const locked = await manager.findOneOrFail(Subscription, { where: { id: planned.subscription.id }, lock: { mode: 'pessimistic_write' } });
        await this.writer.change(manager, locked, { scheduledPriceId: planned.to.id });
        return locked;
      });
      return { preview, subscription: subscriptionView(subscription) };
    }
    const client = await this.settings.requireClient(request.publicationId);
    const prorationDate = this.prorationTime();
    const { preview, itemId } = await this.previewNow(client, planned, prorationDate);
    const answer = await atProcessor('change the plan', () =>
      client.subscriptions.update(planned.processorSubscriptionId, {
        items: [{ id: itemId, price: planned.to.processorPriceId as string }],
        proration_behavior: 'always_invoice',
        proration_date: prorationDate,
      }),
    );
    const subscription = await this.dataSource.transaction(async (manager) => {
      await this.rememberProcessorIds(manager, planned);
      const { subscription: stored } = await this.sync.apply(manager, request.publicationId, snapshotOf(answer), wholeSecond(this.clock.now()));
      const held = stored ?? planned.subscription;
      // A change now replaces one waiting for the period end.
      if (held.scheduledPriceId) await this.writer.change(manager, held, { scheduledPriceId: null });
      return held;
    });
    return { preview, subscription: subscriptionView(subscription) };
  }

  private async plan(request: PlanChangeRequest): Promise<Planned> {
    const subscription = await this.subscriptions.find(request.publicationId, request.subscriptionId);
    const processorSubscriptionId = changeableAtProcessor(subscription, request.customerId, 'change plans');
    const to = await this.prices.find(request.publicationId, request.priceId);
    const from = await this.prices.find(request.publicationId, subscription.priceId);
    if (to.id === from.id) throw AppError.invalid('priceId', 'is the price the subscription has already');
    if (isOneTime(to.interval)) throw AppError.invalid('priceId', 'is a one-time price: it is bought through a checkout, not switched to');
    if (to.currency !== from.currency) throw AppError.invalid('priceId', `is in ${to.currency.toUpperCase()}; the subscription is billed in ${from.currency.toUpperCase()}`);
    const product = await this.products.find(request.publicationId, to.productId);
    if (!to.active || !product.active) throw new AppError('conflict', 'This price is not for sale: it or its product is inactive.');
    const direction = monthlyEquivalent(to) < monthlyEquivalent(from) ? 'downgrade' : 'upgrade';
    const when = request.when ?? (direction === 'downgrade' ? 'period_end' : 'now');
    if (when === 'period_end' && !subscription.currentPeriodEnd) throw AppError.invalid('when', 'the subscription has no period end');
    return { subscription, processorSubscriptionId, from, to, product, direction, when };
  }

  private atPeriodEnd({ subscription, from, to, direction }: Planned): PlanChangePreview {
    const end = (subscription.currentPeriodEnd as Date).toISOString();
    return {
      subscriptionId: subscription.id,
      fromPriceId: from.id,
      toPriceId: to.id,
      direction,
      when: 'period_end',
      effectiveAt: end,
      currency: to.currency,
      amountDue: 0,
      lines: [],
      nextAmount: to.unitAmount,
      nextChargeAt: end,
    };
  }

  private async previewNow(client: Stripe, planned: Planned, prorationDate: number): Promise<{ preview: PlanChangePreview; itemId: string }> {
    const { subscription, from, to, direction } = planned;
    await this.prices.atProcessor(client, planned.product, to);
    const current = await atProcessor('read the subscription', () => client.subscriptions.retrieve(planned.processorSubscriptionId));
    const itemId = current.items.data[0]?.id;
    if (!itemId) throw new AppError('processor_error', 'The payment processor shows no item on this subscription.');
    const invoice = await atProcessor('preview the change', () =>
      client.invoices.createPreview({
        subscription: planned.processorSubscriptionId,
        subscription_details: {
          items: [{ id: itemId, price: to.processorPriceId as string }],
          proration_behavior: 'always_invoice',
          proration_date: prorationDate,
        },
      }),
    );
    const lines: PlanChangeLine[] = invoice.lines.data.map((line) => ({
      description: line.description ?? '',
      amount: line.amount,
      proration: line.parent?.subscription_item_details?.proration ?? false,
      periodStart: fromUnix(line.period.start).toISOString(),
      periodEnd: fromUnix(line.period.end).toISOString(),
    }));
    const nextChargeAt = lines.reduce<string | null>((latest, line) => (latest === null || line.periodEnd > latest ? line.periodEnd : latest), null);
    const preview: PlanChangePreview = {
      subscriptionId: subscription.id,
      fromPriceId: from.id,
      toPriceId: to.id,
      direction,
      when: 'now',
      effectiveAt: fromUnix(prorationDate).toISOString(),
      currency: invoice.currency,
      amountDue: invoice.amount_due,
      lines,
      nextAmount: to.unitAmount,
      nextChargeAt: nextChargeAt ?? subscription.currentPeriodEnd?.toISOString() ?? null,
    };
    return { preview, itemId };
  }

  private async rememberProcessorIds(manager: EntityManager, planned: Planned): Promise<void> {
    await manager.update(Product, { id: planned.product.id }, { processorProductId: planned.product.processorProductId });
    await manager.update(Price, { id: planned.to.id }, { processorPriceId: planned.to.processorPriceId });
  }

  private prorationTime(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }
}
