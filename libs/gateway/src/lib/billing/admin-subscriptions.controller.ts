import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BillingRequests, type Page, type SubscriptionView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { Idempotent } from '../edge/idempotency.service';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { AtPeriodEndDto, GrantSubscriptionDto, SubscriptionListQueryDto } from './dtos/billing.dto';
import { SubscriptionViewDto, SubscriptionPageDto } from './dtos/billing-views.dto';


@ApiTags('admin subscriptions')
@Controller('admin/subscriptions')
export class AdminSubscriptionsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The publication's subscriptions, newest first, cursor paginated; filter by customer or status." })
  @ApiOkResponse({ type: SubscriptionPageDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad filter, `limit` or `cursor`' })
  list(@Caller() caller: Principal, @Query() query: SubscriptionListQueryDto): Promise<Page<SubscriptionView>> {
    return this.bus.request(BillingRequests.ListSubscriptions, { publicationId: sessionOf(caller).publicationId, ...query });
  }

  @Get(':id')
  @Auth('session')
  @ApiOperation({ summary: 'One subscription.' })
  @ApiOkResponse({ type: SubscriptionViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  get(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<SubscriptionView> {
    return this.bus.request(BillingRequests.GetSubscription, { publicationId: sessionOf(caller).publicationId, subscriptionId: id });
  }

  @Post()
  @Auth('session')
  @Idempotent()
  @ApiOperation({ summary: 'Grant a subscription by hand (`source: "manual"`), active now and until `currentPeriodEnd` when given. Emits `subscription.created`.' })
  @ApiCreatedResponse({ type: SubscriptionViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: e.g. `currentPeriodEnd` not in the future' })
  @ApiResponse({ status: 404, description: '`not_found`: no such customer or price in the publication' })
  grant(@Caller() caller: Principal, @Body() body: GrantSubscriptionDto): Promise<SubscriptionView> {
    return this.bus.request(BillingRequests.GrantSubscription, { publicationId: sessionOf(caller).publicationId, ...body });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Auth('session')
  @Idempotent()
  @ApiOperation({ summary: 'Cancel a subscription, at the period end (the default) or now, as `POST /api/v1/subscriptions/cancel` does.' })
  @ApiOkResponse({ type: SubscriptionViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 502, description: '`processor_error`: the payment processor refused or failed; nothing changed' })
  cancel(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() body: AtPeriodEndDto): Promise<SubscriptionView> {
    return this.bus.request(BillingRequests.CancelSubscription, {
      publicationId: sessionOf(caller).publicationId,
      subscriptionId: id,
      atPeriodEnd: body?.atPeriodEnd ?? true,
    });
  }
}
