import { Injectable } from '@nestjs/common';
import {
  Events,
  GIFT_MONTHS,
  IdentityRequests,
  type GiftCheckoutView,
  type GiftPurchase,
  type GiftRedemption,
  type GiftView,
  type Page,
  type PageRequest,
} from '@gatehouse/contracts';
import { BusClient, Outbox } from '@gatehouse/bus';
import { newestFirst, pageOf } from '@gatehouse/db';
import { AppError, Clock, isUuid, SecretBox } from '@gatehouse/platform';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, In, type EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { PricesService } from '../catalog/prices.service';
import { Product } from '../catalog/product.entity';
import { ProductsService } from '../catalog/products.service';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorCustomersService } from '../processor/processor-customers.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { newSubscription } from '../subscriptions/new-subscription';
import { SubscriptionWriter } from '../subscriptions/subscription-writer.service';
import { subscriptionView } from '../subscriptions/subscription-views';
import { Subscription } from '../subscriptions/subscription.entity';
import { Gift } from './gift.entity';
import { GiftPayments } from './gift-payments.service';
import { giftAmount, giftView, monthsAfter } from './gift-views';

/** SHA-256 of a code, as gifts are found by it. */
export function codeHashOf(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/**
 * Gift subscriptions (docs/billing.md#gift-subscriptions): a buyer pays once, at the processor, for
 * some months of a price; the recipient redeems the emailed code for a subscription with a fixed
 * end (`source: gift`) that never renews. Staff may void a gift until it is redeemed.
 */
@Injectable()
export class GiftsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly bus: BusClient,
    private readonly outbox: Outbox,
    private readonly box: SecretBox,
    private readonly settings: ProcessorSettingsService,
    private readonly products: ProductsService,
    private readonly prices: PricesService,
    private readonly processorCustomers: ProcessorCustomersService,
    private readonly writer: SubscriptionWriter,
    private readonly payments: GiftPayments,
  ) {}

  /**
   * The processor's checkout in payment mode for the gift's amount, an inline one-time price of the
   * product; the gift is stored, pending, only once the processor made it (a 502 leaves nothing).
   */
  async purchase(request: GiftPurchase): Promise<GiftCheckoutView> {
    const { publicationId } = request;
    if (!(GIFT_MONTHS as readonly number[]).includes(request.months)) throw AppError.invalid('months', `must be one of ${GIFT_MONTHS.join(', ')}`);
    const price = await this.prices.find(publicationId, request.priceId);
    const product = await this.products.find(publicationId, price.productId);
    if (!price.active || !product.active) throw new AppError('conflict', 'This price is not for sale: it or its product is inactive.');
    const { interval } = price;
    if (interval !== 'month' && interval !== 'year') throw new AppError('conflict', 'A one-time price cannot be given for some months: choose a monthly or yearly one.');
    const buyer = request.customerId === undefined ? null : await this.customer(publicationId, request.customerId);
    const buyerEmail = buyer?.email ?? request.buyerEmail;
    if (!buyerEmail) throw AppError.invalid('buyerEmail', 'is required unless the buyer is signed in');
    const client = await this.settings.requireClient(publicationId);

    const now = this.clock.now();
    const id = randomUUID();
    const code = randomBytes(18).toString('base64url');
    const amount = giftAmount(price.unitAmount, interval, request.months);
    await this.prices.atProcessor(client, product, price);
    const processorCustomerId = buyer ? await this.processorCustomers.processorIdOf(client, publicationId, buyer) : null;
    const metadata = { giftId: id, publicationId };
    const session = await atProcessor('create the gift checkout', () =>
      client.checkout.sessions.create(
        {
          mode: 'payment',
          ...(processorCustomerId ? { customer: processorCustomerId } : { customer_email: buyerEmail }),
          line_items: [{ price_data: { currency: price.currency, unit_amount: amount, product: product.processorProductId as string }, quantity: 1 }],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          metadata,
          payment_intent_data: { metadata },
        },
        { idempotencyKey: `gift-checkout:${id}` },
      ),
    );
    if (!session.url) throw new AppError('processor_error', 'The payment processor created a checkout session without an address.');

    await this.dataSource.transaction(async (manager) => {
      await manager.update(Product, { id: product.id }, { processorProductId: product.processorProductId });
      await manager.update(Price, { id: price.id }, { processorPriceId: price.processorPriceId });
      if (buyer && processorCustomerId) await this.processorCustomers.remember(manager, publicationId, buyer.id, { id: processorCustomerId, email: buyer.email, name: buyer.name });
      await manager.insert(Gift, {
        id,
        publicationId,
        codeHash: codeHashOf(code),
        codeSealed: this.box.encrypt(code),
        status: 'pending',
        priceId: price.id,
        months: request.months,
        amount,
        currency: price.currency,
        buyerCustomerId: buyer?.id ?? null,
        buyerEmail,
        buyerName: request.buyerName,
        recipientEmail: request.recipientEmail,
        recipientName: request.recipientName,
        message: request.message ?? null,
        redeemUrl: request.redeemUrl ?? null,
        sendAt: request.sendAt && new Date(request.sendAt) > now ? new Date(request.sendAt) : now,
        processorSessionId: session.id,
        processorPaymentIntentId: null,
        purchasedAt: null,
        emailedAt: null,
        redeemedAt: null,
        redeemedBy: null,
        subscriptionId: null,
        remindedAt: null,
        voidedAt: null,
        voidReason: null,
        createdAt: now,
      });
    });
    return { giftId: id, url: session.url, sessionId: session.id, amount, currency: price.currency };
  }

  /**
   * The reader's subscription of the gift's price from now for its months, which ends then and
   * does not renew (`cancelAtPeriodEnd`). The same reader redeeming again gets the same answer.
   */
  async redeem(publicationId: string, customerId: string, code: string): Promise<GiftRedemption> {
    await this.customer(publicationId, customerId);
    return this.dataSource.transaction(async (manager) => {
      const gift = await manager.findOne(Gift, { where: { publicationId, codeHash: codeHashOf(code) }, lock: { mode: 'pessimistic_write' } });
      // A code not paid for yet is as unknown as a made-up one: nobody was sent it.
      if (!gift || gift.status === 'pending') throw new AppError('not_found', 'No gift has this code.');
      if (gift.status === 'voided') throw new AppError('gift_voided', 'This gift was cancelled or refunded: its code no longer works.');
      if (gift.status === 'redeemed') {
        if (gift.redeemedBy !== customerId) throw new AppError('gift_redeemed', 'This gift has been redeemed already.');
        return this.redemption(manager, gift, await manager.findOneByOrFail(Subscription, { id: gift.subscriptionId as string }));
      }
      const now = this.clock.now();
      const subscription = newSubscription(
        { publicationId, customerId, priceId: gift.priceId, status: 'active', source: 'gift', currentPeriodStart: now, currentPeriodEnd: monthsAfter(now, gift.months), now },
        { cancelAtPeriodEnd: true },
      );
      await this.writer.insert(manager, subscription);
      await manager.update(Gift, { id: gift.id }, { status: 'redeemed', redeemedAt: now, redeemedBy: customerId, subscriptionId: subscription.id, codeSealed: null });
      await this.outbox.add(
        manager,
        Events.GiftRedeemed,
        { giftId: gift.id, customerId, subscriptionId: subscription.id, priceId: gift.priceId, months: gift.months, endsAt: (subscription.currentPeriodEnd as Date).toISOString() },
        publicationId,
      );
      return this.redemption(manager, gift, subscription);
    });
  }

  async list(publicationId: string, request: PageRequest): Promise<Page<GiftView>> {
    const query = this.dataSource.getRepository(Gift).createQueryBuilder('gift').where('gift.publication_id = :publicationId', { publicationId });
    const page = await pageOf(query, newestFirst(query.alias), request, (gift) => gift);
    const products = await this.productsOf(this.dataSource.manager, page.items);
    return { items: page.items.map((gift) => giftView(gift, products.get(gift.priceId) as Product)), nextCursor: page.nextCursor };
  }

  async get(publicationId: string, giftId: string): Promise<GiftView> {
    return this.viewOf(this.dataSource.manager, await this.find(this.dataSource.manager, publicationId, giftId));
  }

  /**
   * Staff cancel a gift before it is redeemed; its code is refused from then on. A paid gift's
   * payment is refunded at the processor first, holding the gift's row so that no redemption slips
   * in between: a refusal is 502 and the gift stays as it was. The `charge.refunded` that follows
   * finds it voided and changes nothing.
   */
  async void(publicationId: string, giftId: string): Promise<GiftView> {
    return this.dataSource.transaction(async (manager) => {
      const gift = await this.find(manager, publicationId, giftId, true);
      if (gift.status === 'redeemed') throw new AppError('gift_redeemed', 'This gift has been redeemed: cancel the subscription it made instead.');
      if (gift.status !== 'voided') {
        const paid = gift.status === 'purchased' && gift.processorPaymentIntentId;
        if (paid) await this.payments.refund(publicationId, gift.id, paid);
        await this.payments.void(manager, gift, paid ? 'refunded' : 'cancelled');
      }
      return this.viewOf(manager, gift);
    });
  }

  private async redemption(manager: EntityManager, gift: Gift, subscription: Subscription): Promise<GiftRedemption> {
    const product = (await this.productsOf(manager, [gift])).get(gift.priceId) as Product;
    return { giftId: gift.id, productName: product.name, months: gift.months, subscription: subscriptionView(subscription) };
  }

  private async find(manager: EntityManager, publicationId: string, giftId: string, lock = false): Promise<Gift> {
    const gift = isUuid(giftId) ? await manager.findOne(Gift, { where: { id: giftId, publicationId }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) }) : null;
    if (!gift) throw new AppError('not_found', 'No such gift.');
    return gift;
  }

  private async viewOf(manager: EntityManager, gift: Gift): Promise<GiftView> {
    return giftView(gift, (await this.productsOf(manager, [gift])).get(gift.priceId) as Product);
  }

  /** The product of each gift's price, by price id. */
  private async productsOf(manager: EntityManager, gifts: Gift[]): Promise<Map<string, Product>> {
    if (gifts.length === 0) return new Map();
    const prices = await manager.findBy(Price, { id: In(gifts.map((gift) => gift.priceId)) });
    const products = await manager.findBy(Product, { id: In(prices.map((price) => price.productId)) });
    return new Map(prices.map((price) => [price.id, products.find((product) => product.id === price.productId) as Product]));
  }

  private customer(publicationId: string, customerId: string) {
    if (!isUuid(customerId)) throw new AppError('not_found', 'No such customer.');
    return this.bus.request(IdentityRequests.GetCustomer, { publicationId, customerId });
  }
}
