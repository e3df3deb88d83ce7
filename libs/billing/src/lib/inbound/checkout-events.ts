import { Injectable } from '@nestjs/common';
import { Events } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { Clock, isUuid } from '@gatehouse/platform';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { CheckoutSession } from '../checkout/checkout-session.entity';
import { newSubscription } from '../subscriptions/new-subscription';
import { idOf, snapshotOf } from '../subscriptions/processor-snapshot';
import { ProcessorSubscriptionSync } from '../subscriptions/processor-subscription-sync';
import { SubscriptionWriter } from '../subscriptions/subscription-writer';
import { Subscription } from '../subscriptions/subscription.entity';
import { FreshSubscriptions } from './fresh-subscriptions';
import { eventTime, readTime, type InboundContext } from './inbound-context';
import { PublicationResolver } from './publication-resolver';

/**
 * `checkout.session.completed` (spec 3.2): creates or updates the subscription of the customer
 * named in the checkout metadata, records the completed checkout, and announces the conversion
 * of the experiment variant it carried (`experiment.converted`), once per checkout.
 */
@Injectable()
export class CheckoutEventHandler {
  constructor(
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly resolver: PublicationResolver,
    private readonly sync: ProcessorSubscriptionSync,
    private readonly writer: SubscriptionWriter,
    private readonly fresh: FreshSubscriptions,
  ) {}

  async handle(context: InboundContext, session: Stripe.Checkout.Session): Promise<string> {
    const metadata = session.metadata ?? {};
    const customerId = metadata['customerId'];
    if (!isUuid(customerId)) return 'ignored: no customerId in the checkout metadata';
    const publicationId = await this.resolver.resolve(context, { metadata, processorCustomerId: session.customer ? idOf(session.customer) : null });
    if (!publicationId) return 'ignored: not about a publication of this service';
    if (session.status !== 'complete' || session.payment_status === 'unpaid') return 'ignored: not paid yet';

    await this.recordCompletion(context.manager, publicationId, session, customerId);
    if (session.mode === 'payment') return this.lifetimePurchase(context, publicationId, session, customerId);
    if (!session.subscription) return 'recorded: the checkout made no subscription';
    const processorSubscriptionId = idOf(session.subscription);
    if (await this.sync.locked(context.manager, publicationId, processorSubscriptionId)) return 'recorded: the subscription is stored already';
    const current = await this.fresh.fetch(publicationId, processorSubscriptionId);
    if (!current) return 'recorded: the subscription comes with its own event';
    const readAt = readTime(context.event, this.clock.now());
    return (await this.sync.apply(context.manager, publicationId, snapshotOf(current), readAt, customerId)).outcome;
  }

  private async recordCompletion(manager: EntityManager, publicationId: string, session: Stripe.Checkout.Session, customerId: string): Promise<void> {
    const metadata = session.metadata ?? {};
    const now = this.clock.now();
    let checkout = await manager.findOne(CheckoutSession, { where: { publicationId, processorSessionId: session.id }, lock: { mode: 'pessimistic_write' } });
    if (checkout?.completedAt) return;
    if (!checkout) {
      // Started before this service recorded checkouts, or by another replica whose transaction had not committed: the metadata says the same.
      if (!isUuid(metadata['priceId'])) return;
      checkout = manager.create(CheckoutSession, {
        publicationId,
        processorSessionId: session.id,
        customerId,
        priceId: metadata['priceId'],
        experimentId: metadata['experimentId'] ?? null,
        variantId: metadata['variantId'] ?? null,
        paywallId: metadata['paywallId'] ?? null,
        createdAt: now,
      });
    }
    checkout.completedAt = now;
    await manager.save(checkout);
    if (checkout.experimentId && checkout.variantId) {
      await this.outbox.add(
        manager,
        Events.ExperimentConverted,
        { experimentId: checkout.experimentId, variantId: checkout.variantId, paywallId: checkout.paywallId ?? '', visitorId: null, customerId },
        publicationId,
      );
    }
  }

  /** A lifetime price is paid once: the subscription it buys is active from now on and never ends. */
  private async lifetimePurchase(context: InboundContext, publicationId: string, session: Stripe.Checkout.Session, customerId: string): Promise<string> {
    const { manager } = context;
    const priceId = session.metadata?.['priceId'];
    const price = isUuid(priceId) ? await manager.findOneBy(Price, { publicationId, id: priceId }) : null;
    if (!price) return 'recorded: a price this publication does not sell';
    if (await manager.findOneBy(Subscription, { publicationId, processorCheckoutSessionId: session.id })) return 'recorded: the purchase is stored already';
    const purchase = newSubscription(
      { publicationId, customerId, priceId: price.id, status: 'active', source: 'processor', currentPeriodStart: eventTime(context.event), currentPeriodEnd: null, now: this.clock.now() },
      { processorCheckoutSessionId: session.id, processorStateAt: eventTime(context.event) },
    );
    await this.writer.insert(manager, purchase);
    return 'applied';
  }
}
