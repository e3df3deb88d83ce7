import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BillingRequests, type CheckoutConfirmation, type CheckoutSessionView, type CustomerPurchaseView, type SubscriptionView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import type { FastifyRequest } from 'fastify';
import { SegmentReaders } from '../access/segment-readers.service';
import { Auth } from '../edge/credentials';
import { requirePublicationPages } from '../edge/publication-pages';
import { Idempotent } from '../edge/idempotency.service';
import { Caller, keyPublicationOf, type Principal } from '../edge/principal';
import { CheckoutConfirmationDto, CheckoutSessionDto, CustomerPurchasesDto, CustomerSubscriptionsDto, PortalSessionDto, SubscriptionViewDto } from './dtos/billing-views.dto';
import { CancelSubscriptionDto, CheckoutDto, ConfirmCheckoutDto, PortalDto, SubscriptionsMeQueryDto } from './dtos/billing.dto';

const CUSTOMER_RULE = "With a customer JWT, the token's customer: another `customerId` answers 403 `forbidden`. With a secret key, `customerId` is required.";

/**
 * Spec 5.1: a publishable key acts only for the customer of the JWT sent with it; a secret key
 * names the customer. A JWT, when sent, always decides.
 */
function customerFor(caller: Principal, requested: string | undefined): string {
  if (caller.customer) {
    if (requested !== undefined && requested !== caller.customer.customerId) {
      throw new AppError('forbidden', "A customer's token acts for that customer only.");
    }
    return caller.customer.customerId;
  }
  if (requested === undefined) {
    throw new AppError('validation_failed', 'The request is invalid.', [{ field: 'customerId', message: 'is required with a secret key' }]);
  }
  return requested;
}

@ApiTags('subscriptions')
@Controller('subscriptions')
export class SubscriptionsController {
  constructor(
    private readonly bus: BusClient,
    private readonly readers: SegmentReaders,
  ) {}

  @Get('me')
  @Auth('secret-or-customer')
  @ApiOperation({ summary: `The customer's subscriptions, newest first, cancelled ones included. ${CUSTOMER_RULE}` })
  @ApiOkResponse({ type: CustomerSubscriptionsDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: no `customerId` with a secret key' })
  @ApiResponse({ status: 403, description: "`forbidden`: a `customerId` other than the JWT's" })
  @ApiResponse({ status: 404, description: '`not_found`: no such customer in the publication' })
  me(@Caller() caller: Principal, @Query() query: SubscriptionsMeQueryDto): Promise<{ subscriptions: SubscriptionView[] }> {
    return this.bus.request(BillingRequests.CustomerSubscriptions, { publicationId: keyPublicationOf(caller), customerId: customerFor(caller, query.customerId) });
  }

  @Get('purchases')
  @Auth('secret-or-customer')
  @ApiOperation({ summary: `The customer's passes and single articles (one-time purchases), newest first, ended passes included. ${CUSTOMER_RULE}` })
  @ApiOkResponse({ type: CustomerPurchasesDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: no `customerId` with a secret key' })
  @ApiResponse({ status: 403, description: "`forbidden`: a `customerId` other than the JWT's" })
  @ApiResponse({ status: 404, description: '`not_found`: no such customer in the publication' })
  purchases(@Caller() caller: Principal, @Query() query: SubscriptionsMeQueryDto): Promise<{ purchases: CustomerPurchaseView[] }> {
    return this.bus.request(BillingRequests.CustomerPurchases, { publicationId: keyPublicationOf(caller), customerId: customerFor(caller, query.customerId) });
  }

  @Post('checkout')
  @Auth('secret-or-customer')
  @Idempotent()
  @ApiOperation({
    summary: `Start a checkout at the payment processor for one price (a one-time price, \`lifetime\`, \`pass\` or \`single_article\`, in payment mode); redirect the customer to \`url\`. The customer id (and the experiment ids) travel in the processor's metadata. A single-article price buys the page \`articleUrl\`. ${CUSTOMER_RULE}`,
  })
  @ApiCreatedResponse({ type: CheckoutSessionDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 403, description: "`forbidden`: a `customerId` other than the JWT's; `url_not_in_publication`: `successUrl`, `cancelUrl`, `articleUrl` or `reader.url` is not on the publication's domains" })
  @ApiResponse({ status: 404, description: '`not_found`: no such price, customer or offer code in the publication' })
  @ApiResponse({
    status: 409,
    description:
      '`conflict`: the price or its product is inactive, or the publication has no processor settings; `offer_not_applicable`: the offer is not for this price, or for new subscribers only and the customer had a subscription, or limited to a segment the reader is not in',
  })
  @ApiResponse({ status: 410, description: '`offer_expired`: the offer ended; `offer_exhausted`: it was redeemed as often as it may be' })
  @ApiResponse({ status: 502, description: '`processor_error`: the payment processor refused or failed; nothing was stored' })
  async checkout(@Caller() caller: Principal, @Body() body: CheckoutDto, @Req() request: FastifyRequest): Promise<CheckoutSessionView> {
    const { reader, ...checkout } = requirePublicationPages(caller, body, ['successUrl', 'cancelUrl', 'articleUrl']);
    const customerId = customerFor(caller, body.customerId);
    return this.bus.request(BillingRequests.CreateCheckout, {
      ...checkout,
      publicationId: keyPublicationOf(caller),
      customerId,
      reader: await this.readers.readerOf(caller, customerId, reader, request, 'reader.url'),
    });
  }

  @Post('checkout/confirm')
  @HttpCode(200)
  @Auth('secret-or-customer')
  @ApiOperation({
    summary: `Confirm a checkout the customer came back from: the payment processor is asked for the session's state and, once it is paid, the subscription is recorded exactly as the processor's \`checkout.session.completed\` webhook records it (whichever comes first; the other changes nothing). The browser SDK calls it on the page the success URL leads to, so the page unlocks even when the webhook is late. ${CUSTOMER_RULE}`,
  })
  @ApiOkResponse({ type: CheckoutConfirmationDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: not a checkout session id' })
  @ApiResponse({ status: 403, description: "`forbidden`: a `customerId` other than the JWT's" })
  @ApiResponse({ status: 404, description: '`not_found`: no checkout with this id was started by this customer in the publication' })
  @ApiResponse({ status: 409, description: '`conflict`: the publication has no processor settings' })
  @ApiResponse({ status: 502, description: '`processor_error`: the payment processor could not be asked; nothing was recorded' })
  confirmCheckout(@Caller() caller: Principal, @Body() body: ConfirmCheckoutDto): Promise<CheckoutConfirmation> {
    return this.bus.request(BillingRequests.ConfirmCheckout, {
      publicationId: keyPublicationOf(caller),
      customerId: customerFor(caller, body.customerId),
      sessionId: body.sessionId,
    });
  }

  @Post('portal')
  @Auth('secret-or-customer')
  @ApiOperation({ summary: `Open the payment processor's billing portal for the customer; redirect them to \`url\`. ${CUSTOMER_RULE}` })
  @ApiCreatedResponse({ type: PortalSessionDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 403, description: "`forbidden`: a `customerId` other than the JWT's; `url_not_in_publication`: `returnUrl` is not on the publication's domains" })
  @ApiResponse({ status: 404, description: '`not_found`: billing knows no account of the customer at the processor (no checkout, no processor subscription)' })
  @ApiResponse({ status: 502, description: '`processor_error`' })
  portal(@Caller() caller: Principal, @Body() body: PortalDto): Promise<{ url: string }> {
    return this.bus.request(BillingRequests.CreatePortal, {
      publicationId: keyPublicationOf(caller),
      customerId: customerFor(caller, body.customerId),
      returnUrl: requirePublicationPages(caller, body, ['returnUrl']).returnUrl,
    });
  }

  @Post('cancel')
  @HttpCode(200)
  @Auth('secret-or-customer')
  @Idempotent()
  @ApiOperation({
    summary:
      "Cancel a subscription: at the period end (the default) it stays active with `cancelAtPeriodEnd: true`; otherwise it is cancelled now. Cancelling a cancelled one changes nothing. `reason` is recorded and sent in the `subscription.cancelled` data. With a customer JWT (a reader cancelling from the account element) only the token's own subscription, and only at the period end.",
  })
  @ApiOkResponse({ type: SubscriptionViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: not a subscription id, or a `reason` not in the list' })
  @ApiResponse({ status: 403, description: '`forbidden`: `atPeriodEnd: false` with a customer JWT' })
  @ApiResponse({ status: 404, description: "`not_found`: no such subscription in the publication (with a customer JWT: none of the token's customer)" })
  @ApiResponse({ status: 502, description: '`processor_error`: the payment processor refused or failed; nothing changed' })
  cancel(@Caller() caller: Principal, @Body() body: CancelSubscriptionDto): Promise<SubscriptionView> {
    const atPeriodEnd = body.atPeriodEnd ?? true;
    if (caller.customer && !atPeriodEnd) throw new AppError('forbidden', 'A reader cancels at the end of the period they paid for.');
    return this.bus.request(BillingRequests.CancelSubscription, {
      publicationId: keyPublicationOf(caller),
      subscriptionId: body.subscriptionId,
      atPeriodEnd,
      ...(caller.customer ? { customerId: caller.customer.customerId } : {}),
      ...(body.reason ? { reason: body.reason } : {}),
    });
  }
}
