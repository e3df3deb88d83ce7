import { Injectable } from '@nestjs/common';
import { Events, isPurchase } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { Clock, isUuid } from '@gatehouse/platform';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { CheckoutSession } from '../checkout/checkout-session.entity';
import { GiftPayments } from '../gifts/gift-payments.service';
import { redeemedOffer } from '../offers/redeemed-offer';
import type { Purchase } from '../passes/purchase.entity';
import { PurchasesService } from '../passes/purchases.service';
import { OrganisationsService } from '../organisations/organisations.service';
import { newSubscription } from '../subscriptions/new-subscription';
import { idOf, snapshotOf } from '../subscriptions/processor-snapshot';
import { ProcessorSubscriptionSync, type SyncResult } from '../subscriptions/processor-subscription-sync.service';
import { SubscriptionWriter } from '../subscriptions/subscription-writer.service';
import { Subscription } from '../subscriptions/subscription.entity';
import { FreshSubscriptions } from './fresh-subscriptions.service';
import { eventTime, readTime, type InboundContext } from './inbound-context';
import { PublicationResolver } from './publication-resolver.service';

/** When the processor says the checkout was paid, and when its subscription's state is read. */
export interface CompletionTimes {
  happenedAt: Date;
  readAt: Date;
}

/** What completing a checkout did, and the subscription it bought (null when it comes with its own event) or the pass or single article. */
export type Completion = SyncResult & { purchase?: Purchase | null };

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
    private readonly purchases: PurchasesService,
    private readonly gifts: GiftPayments,
    private readonly organisations: OrganisationsService,
  ) {}

  async handle(context: InboundContext, session: Stripe.Checkout.Session): Promise<string> {
    const metadata = session.metadata ?? {};
    if (metadata['giftId']) return this.giftPaid(context, session);
    const customerId = metadata['customerId'];
    if (!isUuid(customerId)) return 'ignored: no customerId in the checkout metadata';
    const publicationId = await this.resolver.resolve(context, { metadata, processorCustomerId: session.customer ? idOf(session.customer) : null });
    if (!publicationId) return 'ignored: not about a publication of this service';
    if (!isPaid(session)) return 'ignored: not paid yet';
    const times = { happenedAt: eventTime(context.event), readAt: readTime(context.event, this.clock.now()) };
    return (await this.complete(context.manager, publicationId, session, customerId, times)).outcome;
  }

  /** A gift's checkout: the buyer may have no account, so the gift's own record says whose it is. */
  private async giftPaid(context: InboundContext, session: Stripe.Checkout.Session): Promise<string> {
    const publicationId = await this.resolver.resolve(context, { metadata: session.metadata });
    if (!publicationId) return 'ignored: not about a publication of this service';
    if (!isPaid(session)) return 'ignored: not paid yet';
    return this.gifts.paid(context.manager, publicationId, session, eventTime(context.event));
  }

  /**
   * A paid checkout of the customer, whether its event arrived or the reader came back first
   * (checkout confirmation): records it, and stores its subscription unless stored already.
   * Under the checkout's row lock, so the two, and a redelivery, apply it once.
   */
  async complete(manager: EntityManager, publicationId: string, session: Stripe.Checkout.Session, customerId: string, times: CompletionTimes): Promise<Completion> {
    await this.recordCompletion(manager, publicationId, session, customerId);
    if (session.mode === 'payment') return this.payment(manager, publicationId, session, customerId, times.happenedAt);
    if (!session.subscription) return { outcome: 'recorded: the checkout made no subscription', subscription: null };
    const processorSubscriptionId = idOf(session.subscription);
    const stored = await this.sync.locked(manager, publicationId, processorSubscriptionId);
    if (stored) return { outcome: 'recorded: the subscription is stored already', subscription: stored };
    const current = await this.fresh.fetch(publicationId, processorSubscriptionId);
    if (!current) return { outcome: 'recorded: the subscription comes with its own event', subscription: null };
    return this.sync.apply(manager, publicationId, snapshotOf(current), times.readAt, customerId);
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
    await this.organisationBought(manager, publicationId, session, customerId);
    if (checkout.experimentId && checkout.variantId) {
      await this.outbox.add(
        manager,
        Events.ExperimentConverted,
        { experimentId: checkout.experimentId, variantId: checkout.variantId, paywallId: checkout.paywallId ?? '', visitorId: null, customerId },
        publicationId,
      );
    }
  }

  /** A group purchase (`seats` in the metadata) creates its organisation, the buyer its manager. */
  private async organisationBought(manager: EntityManager, publicationId: string, session: Stripe.Checkout.Session, customerId: string): Promise<void> {
    const metadata = session.metadata ?? {};
    const seats = Number(metadata['seats']);
    if (!Number.isSafeInteger(seats) || seats < 1 || !session.subscription || !isUuid(metadata['priceId'])) return;
    const price = await manager.findOneBy(Price, { publicationId, id: metadata['priceId'] });
    if (!price) return;
    await this.organisations.fromCheckout(manager, publicationId, {
      name: metadata['organisationName'] || 'Organisation',
      productId: price.productId,
      seats,
      buyerId: customerId,
      processorSubscriptionId: idOf(session.subscription),
    });
  }

  /**
   * A one-time price is paid once (payment mode): a pass or a single article is a purchase; a
   * lifetime price buys a subscription active from `paidAt` on that never ends.
   */
  private async payment(manager: EntityManager, publicationId: string, session: Stripe.Checkout.Session, customerId: string, paidAt: Date): Promise<Completion> {
    const priceId = session.metadata?.['priceId'];
    const price = isUuid(priceId) ? await manager.findOneBy(Price, { publicationId, id: priceId }) : null;
    if (!price) return { outcome: 'recorded: a price this publication does not sell', subscription: null };
    const { interval } = price;
    if (isPurchase(interval)) return { subscription: null, ...(await this.purchases.record(manager, publicationId, customerId, { ...price, interval }, session, paidAt)) };
    const stored = await manager.findOneBy(Subscription, { publicationId, processorCheckoutSessionId: session.id });
    if (stored) return { outcome: 'recorded: the purchase is stored already', subscription: stored };
    const purchase = newSubscription(
      { publicationId, customerId, priceId: price.id, status: 'active', source: 'processor', currentPeriodStart: paidAt, currentPeriodEnd: null, now: this.clock.now() },
      { processorCheckoutSessionId: session.id, processorStateAt: paidAt, ...(await redeemedOffer(manager, publicationId, session.metadata)) },
    );
    await this.writer.insert(manager, purchase);
    return { outcome: 'applied', subscription: purchase };
  }
}

/** Paid, or nothing to pay (a trial): the processor sends the reader to the success URL then. */
export function isPaid(session: Stripe.Checkout.Session): boolean {
  return session.status === 'complete' && session.payment_status !== 'unpaid';
}
