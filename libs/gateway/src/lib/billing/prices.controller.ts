import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BillingRequests } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { Caller, keyPublicationOf, type Principal } from '../edge/principal';
import { PriceOfferDto } from './dtos/billing-views.dto';

@ApiTags('subscriptions')
@Controller('prices')
export class PricesController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('any-key')
  @ApiOperation({
    summary: "The key's publication's prices on sale: the active prices of its active products, cheapest first. What the paywall components offer.",
  })
  @ApiOkResponse({ type: PriceOfferDto })
  list(@Caller() caller: Principal): Promise<PriceOfferDto> {
    return this.bus.request(BillingRequests.ListOffer, { publicationId: keyPublicationOf(caller) });
  }
}
