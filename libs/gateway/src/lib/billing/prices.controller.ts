import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BillingRequests, type OfferedPriceView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { Caller, keyPublicationOf, type Principal } from '../edge/principal';

@ApiTags('subscriptions')
@Controller('prices')
export class PricesController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('any-key')
  @ApiOperation({
    summary: "The key's publication's prices on sale: the active prices of its active products, cheapest first. What the paywall components offer.",
  })
  @ApiOkResponse({ description: '`{prices: [{id, productId, productName, currency, unitAmount, interval, trialDays}]}`' })
  list(@Caller() caller: Principal): Promise<{ prices: OfferedPriceView[] }> {
    return this.bus.request(BillingRequests.ListOffer, { publicationId: keyPublicationOf(caller) });
  }
}
