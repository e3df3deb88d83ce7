import { Injectable } from '@nestjs/common';
import { IdentityRequests, isOneTime, type CheckoutRequest, type CheckoutSessionView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { PricesService } from '../catalog/prices.service';
import { Product } from '../catalog/product.entity';
import { ProductsService } from '../catalog/products.service';
import type { Offer } from '../offers/offer.entity';
import { OffersService } from '../offers/offers.service';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorCustomersService } from '../processor/processor-customers.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { CheckoutSession } from './checkout-session.entity';

/**
 * Decisions F6, F7. Every processor call comes first and is idempotent per local id; what they
 * created is stored in one transaction at the end, so a processor failure (502) leaves nothing.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly bus: BusClient,
    private readonly settings: ProcessorSettingsService,
    private readonly products: ProductsService,
    private readonly prices: PricesService,
    private readonly processorCustomers: ProcessorCustomersService,
    private readonly offers: OffersService,
  ) {}

  async checkout(request: CheckoutRequest): Promise<CheckoutSessionView> {
    const { publicationId, customerId } = request;
    const price = await this.prices.find(publicationId, request.priceId);
    const product = await this.products.find(publicationId, price.productId);
    if ((price.interval === 'single_article') !== (request.articleUrl !== undefined)) {
      throw AppError.invalid('articleUrl', price.interval === 'single_article' ? 'is required for a single-article price: the page it buys' : 'is only for a single-article price');
    }
    if (!price.active || !product.active) throw new AppError('conflict', 'This price is not for sale: it or its product is inactive.');
    if (request.seats !== undefined && price.interval === 'lifetime') throw AppError.invalid('seats', 'are sold with a recurring price only');
    if (!isUuid(customerId)) throw new AppError('not_found', 'No such customer.');
    const customer = await this.bus.request(IdentityRequests.GetCustomer, { publicationId, customerId });
    const client = await this.settings.requireClient(publicationId);

    const offer = request.offerCode === undefined ? null : await this.offers.forCheckout(client, publicationId, request.offerCode, price, { ...request.reader, customerId });

    await this.prices.atProcessor(client, product, price);
    const processorCustomerId = await this.processorCustomers.processorIdOf(client, publicationId, customer);
    const session = await this.createSession(client, request, price, processorCustomerId, offer, customer.name);

    await this.dataSource.transaction(async (manager) => {
      await manager.update(Product, { id: product.id }, { processorProductId: product.processorProductId });
      await manager.update(Price, { id: price.id }, { processorPriceId: price.processorPriceId });
      await this.processorCustomers.remember(manager, publicationId, customerId, { id: processorCustomerId, email: customer.email, name: customer.name });
      await manager.insert(CheckoutSession, {
        publicationId,
        processorSessionId: session.id,
        customerId,
        priceId: price.id,
        experimentId: request.experimentId ?? null,
        variantId: request.variantId ?? null,
        paywallId: request.paywallId ?? null,
        offerId: offer?.id ?? null,
        createdAt: this.clock.now(),
        completedAt: null,
      });
    });
    return { url: session.url as string, sessionId: session.id };
  }

  async portal(publicationId: string, customerId: string, returnUrl: string): Promise<{ url: string }> {
    const account = isUuid(customerId) ? await this.processorCustomers.find(publicationId, customerId) : null;
    if (!account) throw new AppError('not_found', 'This customer has no billing account at the payment processor yet.');
    const client = await this.settings.requireClient(publicationId);
    const session = await atProcessor('open the billing portal', () =>
      client.billingPortal.sessions.create({ customer: account.processorCustomerId, return_url: returnUrl }),
    );
    return { url: session.url };
  }

  /**
   * The service's ids ride in the metadata of the session and of the subscription it creates
   * (decisions F6): inbound events find the customer, the price and the experiment through them.
   */
  private async createSession(
    client: Stripe,
    request: CheckoutRequest,
    price: Price,
    processorCustomerId: string,
    offer: Offer | null,
    buyerName: string,
  ): Promise<Stripe.Checkout.Session> {
    const metadata: Record<string, string> = {
      customerId: request.customerId,
      publicationId: request.publicationId,
      priceId: price.id,
      ...(request.experimentId ? { experimentId: request.experimentId } : {}),
      ...(request.variantId ? { variantId: request.variantId } : {}),
      ...(request.paywallId ? { paywallId: request.paywallId } : {}),
      ...(offer ? { offerId: offer.id, offerCode: offer.code } : {}),
      ...(request.articleUrl ? { articleUrl: request.articleUrl } : {}),
      // A group purchase: completing it creates the organisation (docs/organisations.md).
      ...(request.seats !== undefined ? { seats: String(request.seats), organisationName: (request.organisationName ?? buyerName).trim().slice(0, 100) } : {}),
    };
    // A one-time price (lifetime, pass, single article) is one payment: the processor's payment mode.
    const oneTime = isOneTime(price.interval);
    // A trial offer replaces the price's own trial; a discount rides on its promotion code.
    const trialDays = offer?.kind === 'trial' ? (offer.trialDays as number) : price.trialDays;
    const discounts = offer?.processorPromotionCodeId ? [{ promotion_code: offer.processorPromotionCodeId }] : undefined;
    const session = await atProcessor('create the checkout session', () =>
      client.checkout.sessions.create({
        mode: oneTime ? 'payment' : 'subscription',
        customer: processorCustomerId,
        client_reference_id: request.customerId,
        line_items: [{ price: price.processorPriceId as string, quantity: request.seats ?? 1 }],
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        metadata,
        ...(discounts ? { discounts } : {}),
        ...(oneTime
          ? { payment_intent_data: { metadata } }
          : { subscription_data: { metadata, ...(trialDays > 0 ? { trial_period_days: trialDays } : {}) } }),
      }),
    );
    if (!session.url) throw new AppError('processor_error', 'The payment processor created a checkout session without an address.');
    return session;
  }
}
