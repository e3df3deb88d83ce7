import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessRequests, type Page, type PaywallView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { PageQueryDto } from '../edge/page-query.dto';
import { CreatePaywallDto, UpdatePaywallDto } from './dtos/paywalls.dto';
import { PaywallViewDto, PaywallPageDto } from './dtos/access-views.dto';

const INVALID = '`validation_failed` naming the field: a bad glob (`match.include[0]`), a config that does not suit the type (`config.limit`), an unknown segment (`segmentId`)';

@ApiTags('admin paywalls')
@Controller('admin/paywalls')
export class PaywallsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The publication's paywalls in the order they compete for a page: lowest priority first." })
  @ApiOkResponse({ type: PaywallPageDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad `limit` or `cursor`' })
  list(@Caller() caller: Principal, @Query() page: PageQueryDto): Promise<Page<PaywallView>> {
    return this.bus.request(AccessRequests.ListPaywalls, { publicationId: sessionOf(caller).publicationId, ...page });
  }

  @Post()
  @Auth('session')
  @ApiOperation({ summary: 'Create a paywall. The next access check sees it.' })
  @ApiCreatedResponse({ type: PaywallViewDto })
  @ApiResponse({ status: 400, description: INVALID })
  create(@Caller() caller: Principal, @Body() body: CreatePaywallDto): Promise<PaywallView> {
    return this.bus.request(AccessRequests.CreatePaywall, { publicationId: sessionOf(caller).publicationId, paywall: body });
  }

  @Get(':id')
  @Auth('session')
  @ApiOperation({ summary: 'One paywall.' })
  @ApiOkResponse({ type: PaywallViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  get(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<PaywallView> {
    return this.bus.request(AccessRequests.GetPaywall, { publicationId: sessionOf(caller).publicationId, paywallId: id });
  }

  @Patch(':id')
  @Auth('session')
  @ApiOperation({ summary: 'Change a paywall; the next access check sees the change.' })
  @ApiOkResponse({ type: PaywallViewDto })
  @ApiResponse({ status: 400, description: INVALID })
  @ApiResponse({ status: 404, description: '`not_found`' })
  update(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() body: UpdatePaywallDto): Promise<PaywallView> {
    return this.bus.request(AccessRequests.UpdatePaywall, { publicationId: sessionOf(caller).publicationId, paywallId: id, changes: body });
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Delete a paywall with its draft and stopped experiments.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: '`conflict`: a running experiment covers it' })
  async delete(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(AccessRequests.DeletePaywall, { publicationId: sessionOf(caller).publicationId, paywallId: id });
  }
}
