import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BillingRequests, type Page, type PriceView, type ProductView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { PageQueryDto } from '../edge/page-query.dto';
import { CreatePriceDto, CreateProductDto, UpdatePriceDto, UpdateProductDto } from './dtos/billing.dto';
import { PricePageDto, PriceViewDto, ProductPageDto, ProductViewDto } from './dtos/billing-views.dto';

const PAGE_REFUSAL = '`validation_failed`: a bad `limit`, or a `cursor` this list did not issue';
const PROCESSOR_REFUSAL = '`processor_error`: the payment processor refused or failed; nothing changed';

@ApiTags('admin products and prices')
@Controller('admin/products')
export class AdminProductsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The publication's products, newest first, cursor paginated." })
  @ApiOkResponse({ type: ProductPageDto })
  @ApiResponse({ status: 400, description: PAGE_REFUSAL })
  list(@Caller() caller: Principal, @Query() query: PageQueryDto): Promise<Page<ProductView>> {
    return this.bus.request(BillingRequests.ListProducts, { publicationId: sessionOf(caller).publicationId, ...query });
  }

  @Post()
  @Auth('session')
  @ApiOperation({ summary: 'Create a product; with processor settings saved, at the processor too.' })
  @ApiCreatedResponse({ type: ProductViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 502, description: PROCESSOR_REFUSAL })
  create(@Caller() caller: Principal, @Body() body: CreateProductDto): Promise<ProductView> {
    return this.bus.request(BillingRequests.CreateProduct, { publicationId: sessionOf(caller).publicationId, ...body });
  }

  @Get(':id')
  @Auth('session')
  @ApiOperation({ summary: 'One product.' })
  @ApiOkResponse({ type: ProductViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  get(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<ProductView> {
    return this.bus.request(BillingRequests.GetProduct, { publicationId: sessionOf(caller).publicationId, productId: id });
  }

  @Patch(':id')
  @Auth('session')
  @ApiOperation({ summary: 'Change a product. Changing `entitlements` refreshes what its subscribers may read at once.' })
  @ApiOkResponse({ type: ProductViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 502, description: PROCESSOR_REFUSAL })
  update(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() changes: UpdateProductDto): Promise<ProductView> {
    return this.bus.request(BillingRequests.UpdateProduct, { publicationId: sessionOf(caller).publicationId, productId: id, changes });
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Delete a product and its prices (archived at the processor). Refused while a subscription, purchase or gift uses one of its prices, or an organisation grants it.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: '`conflict`: subscriptions use its prices; deactivate it instead' })
  @ApiResponse({ status: 502, description: PROCESSOR_REFUSAL })
  async delete(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(BillingRequests.DeleteProduct, { publicationId: sessionOf(caller).publicationId, productId: id });
  }

  @Get(':id/prices')
  @Auth('session')
  @ApiOperation({ summary: "The product's prices, newest first, cursor paginated." })
  @ApiOkResponse({ type: PricePageDto })
  @ApiResponse({ status: 400, description: PAGE_REFUSAL })
  @ApiResponse({ status: 404, description: '`not_found`: no such product' })
  listPrices(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Query() query: PageQueryDto): Promise<Page<PriceView>> {
    return this.bus.request(BillingRequests.ListPrices, { publicationId: sessionOf(caller).publicationId, productId: id, ...query });
  }

  @Post(':id/prices')
  @Auth('session')
  @ApiOperation({ summary: 'Create a price of the product; with processor settings saved, at the processor too. Prices are immutable but for `active`.' })
  @ApiCreatedResponse({ type: PriceViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 404, description: '`not_found`: no such product' })
  @ApiResponse({ status: 502, description: PROCESSOR_REFUSAL })
  createPrice(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() price: CreatePriceDto): Promise<PriceView> {
    return this.bus.request(BillingRequests.CreatePrice, { publicationId: sessionOf(caller).publicationId, productId: id, price });
  }
}

@ApiTags('admin products and prices')
@Controller('admin/prices')
export class AdminPricesController {
  constructor(private readonly bus: BusClient) {}

  @Get(':id')
  @Auth('session')
  @ApiOperation({ summary: 'One price.' })
  @ApiOkResponse({ type: PriceViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  get(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<PriceView> {
    return this.bus.request(BillingRequests.GetPrice, { publicationId: sessionOf(caller).publicationId, priceId: id });
  }

  @Patch(':id')
  @Auth('session')
  @ApiOperation({ summary: 'Activate or deactivate a price (an inactive price cannot be bought; its subscriptions go on).' })
  @ApiOkResponse({ type: PriceViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: anything but `active`' })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 502, description: PROCESSOR_REFUSAL })
  update(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() body: UpdatePriceDto): Promise<PriceView> {
    return this.bus.request(BillingRequests.UpdatePrice, { publicationId: sessionOf(caller).publicationId, priceId: id, active: body.active });
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Delete a price (archived at the processor). Refused while a subscription uses it.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: '`conflict`: subscriptions use it; deactivate it instead' })
  @ApiResponse({ status: 502, description: PROCESSOR_REFUSAL })
  async delete(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(BillingRequests.DeletePrice, { publicationId: sessionOf(caller).publicationId, priceId: id });
  }
}
