import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BillingRequests, type CustomerPurchaseView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { CustomerPurchasesDto } from './dtos/billing-views.dto';

/** A customer's passes and single articles for staff (the dashboard's customer page), as the admin subscription routes are: a staff session. */
@ApiTags('admin subscriptions')
@Controller('admin/customers')
export class AdminPurchasesController {
  constructor(private readonly bus: BusClient) {}

  @Get(':id/purchases')
  @Auth('session')
  @ApiOperation({ summary: "A customer's passes and single articles (one-time purchases), newest first, ended passes included, each with its product's name." })
  @ApiOkResponse({ type: CustomerPurchasesDto })
  @ApiResponse({ status: 404, description: '`not_found`: no such customer in the publication' })
  purchases(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<{ purchases: CustomerPurchaseView[] }> {
    return this.bus.request(BillingRequests.CustomerPurchases, { publicationId: sessionOf(caller).publicationId, customerId: id });
  }
}
