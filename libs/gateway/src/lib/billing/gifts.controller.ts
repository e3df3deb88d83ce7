import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { GiftRequests, type GiftCheckoutView, type GiftRedemption, type GiftView, type Page } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Idempotent } from '../edge/idempotency.service';
import { PageQueryDto } from '../edge/page-query.dto';
import { Caller, customerOf, keyPublicationOf, publicationOf, type Principal } from '../edge/principal';
import { requirePublicationPages } from '../edge/publication-pages';
import { GiftCheckoutDto, GiftPageDto, GiftRedemptionDto, GiftViewDto, PurchaseGiftDto, RedeemGiftDto } from './dtos/gifts.dto';

@ApiTags('gifts')
@Controller('gifts')
export class GiftsController {
  constructor(private readonly bus: BusClient) {}

  @Post()
  @Auth('publishable')
  @Idempotent()
  @ApiOperation({
    summary:
      "Buy a gift: 1, 3, 6 or 12 months of a price, paid once at the payment processor (a checkout in payment mode); redirect the buyer to `url`. A signed-in buyer (customer JWT) pays as that customer; anyone else gives `buyerEmail`. Once paid (`gift.purchased`), the recipient is emailed on `sendAt` with a link to redeem. Refunded before redemption, the gift is voided.",
  })
  @ApiCreatedResponse({ type: GiftCheckoutDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: e.g. months not 1, 3, 6 or 12, no `buyerEmail` without a customer JWT' })
  @ApiResponse({ status: 403, description: "`url_not_in_publication`: `successUrl`, `cancelUrl` or `redeemUrl` is not on the publication's domains" })
  @ApiResponse({ status: 404, description: '`not_found`: no such price in the publication' })
  @ApiResponse({ status: 409, description: '`conflict`: the price or its product is inactive, a lifetime price, or the publication has no processor settings' })
  @ApiResponse({ status: 502, description: '`processor_error`: the payment processor refused or failed; nothing was stored' })
  purchase(@Caller() caller: Principal, @Body() body: PurchaseGiftDto): Promise<GiftCheckoutView> {
    return this.bus.request(GiftRequests.PurchaseGift, {
      ...requirePublicationPages(caller, body, ['successUrl', 'cancelUrl', 'redeemUrl']),
      publicationId: keyPublicationOf(caller),
      ...(caller.customer ? { customerId: caller.customer.customerId } : {}),
    });
  }

  @Post('redeem')
  @HttpCode(200)
  @Auth('customer')
  @Idempotent()
  @ApiOperation({
    summary:
      "Redeem a gift's code as the signed-in reader: a subscription of the gift's price from now for its months, `source: gift`, which ends then without renewal (`gift.redeemed`, `subscription.created`). The same reader again gets the same answer.",
  })
  @ApiOkResponse({ type: GiftRedemptionDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: not a gift code' })
  @ApiResponse({ status: 404, description: '`not_found`: no gift with this code in the publication' })
  @ApiResponse({ status: 409, description: '`gift_redeemed`: another reader redeemed it' })
  @ApiResponse({ status: 410, description: '`gift_voided`: the gift was refunded or cancelled' })
  redeem(@Caller() caller: Principal, @Body() body: RedeemGiftDto): Promise<GiftRedemption> {
    return this.bus.request(GiftRequests.RedeemGift, { publicationId: keyPublicationOf(caller), customerId: customerOf(caller).customerId, code: body.code });
  }
}

/** Staff's gifts, in the dashboard (session) or from the publisher's server (secret key, the Node client). */
@ApiTags('admin gifts')
@Controller('admin/gifts')
export class AdminGiftsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session-or-secret')
  @ApiOperation({ summary: "The publication's gifts, newest first, cursor paginated (never their codes or messages)." })
  @ApiOkResponse({ type: GiftPageDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad `limit`, or a `cursor` this list did not issue' })
  list(@Caller() caller: Principal, @Query() query: PageQueryDto): Promise<Page<GiftView>> {
    return this.bus.request(GiftRequests.ListGifts, { publicationId: publicationOf(caller), ...query });
  }

  @Get(':id')
  @Auth('session-or-secret')
  @ApiOperation({ summary: 'One gift.' })
  @ApiOkResponse({ type: GiftViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  get(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<GiftView> {
    return this.bus.request(GiftRequests.GetGift, { publicationId: publicationOf(caller), giftId: id });
  }

  @Post(':id/void')
  @HttpCode(200)
  @Auth('session-or-secret')
  @ApiOperation({
    summary:
      'Cancel a gift before it is redeemed: its code is refused from now on (410 `gift_voided`), and a paid gift\'s payment is refunded in full at the processor (`voidReason: cancelled`). Voiding a voided gift changes nothing and refunds nothing again.',
  })
  @ApiOkResponse({ type: GiftViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: '`gift_redeemed`: it was redeemed; cancel the subscription it made instead' })
  @ApiResponse({ status: 502, description: '`processor_error`: the payment processor refused or failed the refund; the gift is as it was' })
  void(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<GiftView> {
    return this.bus.request(GiftRequests.VoidGift, { publicationId: publicationOf(caller), giftId: id });
  }
}
