import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CustomerRequests, PersonalDataRequests, type Page, type CustomerRecord, type PersonalDataExport } from '@gatehouse/contracts';
import { BusClient, ReadYourWritesInterceptor } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { Idempotent } from '../edge/idempotency.service';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, publicationOf, type Principal } from '../edge/principal';
import { PersonalDataExportDto } from './dtos/personal-data.dto';
import { CreateCustomerDto, CustomerPageDto, CustomerRecordDto, ListCustomersQueryDto, UpdateCustomerDto } from './dtos/customers.dto';

@ApiTags('customers')
@Controller('customers')
// Its writes change what the gateway's read models hold: each is answered once this replica heard of it.
@UseInterceptors(ReadYourWritesInterceptor)
export class CustomersController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session-or-secret')
  @ApiOperation({ summary: "The publication's customers, newest first, cursor paginated." })
  @ApiOkResponse({ type: CustomerPageDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad `limit` or a `cursor` not issued by this list' })
  list(@Caller() caller: Principal, @Query() query: ListCustomersQueryDto): Promise<Page<CustomerRecord>> {
    return this.bus.request(CustomerRequests.List, { publicationId: publicationOf(caller), ...query });
  }

  @Post()
  @Auth('session-or-secret')
  @Idempotent()
  @ApiOperation({ summary: 'Create a customer, with or without a password. Emits `customer.created`.' })
  @ApiCreatedResponse({ type: CustomerRecordDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 409, description: '`email_taken`: the email is registered in this publication' })
  create(@Caller() caller: Principal, @Body() body: CreateCustomerDto): Promise<CustomerRecord> {
    return this.bus.request(CustomerRequests.Create, { publicationId: publicationOf(caller), ...body });
  }

  @Patch(':id')
  @Auth('session-or-secret')
  @ApiOperation({ summary: "Change a customer's email, name or password (a new password ends their sessions). Emits `customer.updated`." })
  @ApiOkResponse({ type: CustomerRecordDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: "`email_taken`: another customer's email" })
  update(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() changes: UpdateCustomerDto): Promise<CustomerRecord> {
    return this.bus.request(CustomerRequests.Update, { publicationId: publicationOf(caller), customerId: id, changes });
  }

  @Get(':id/export')
  @Auth('session-or-secret')
  @ApiOperation({
    summary:
      'Everything held about the customer, as one JSON document (GDPR art. 15 and 20): record, sessions, subscriptions, checkouts, events, visits, metered reads, newsletter and data-wall submissions, email log, webhook deliveries.',
  })
  @ApiOkResponse({ type: PersonalDataExportDto })
  @ApiResponse({ status: 404, description: '`not_found`: no such customer in this publication, or erased' })
  export(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<PersonalDataExport> {
    return this.bus.request(PersonalDataRequests.Export, { publicationId: publicationOf(caller), customerId: id });
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth('session-or-secret')
  @ApiOperation({
    summary:
      "Erase a customer (GDPR art. 17): at once they can no longer sign in and `customer.deleted` is emitted; every service then deletes or anonymises what it holds about them, the processor's customer included (docs/customers.md).",
  })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`: no such customer in this publication, or erased already' })
  async delete(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(CustomerRequests.Delete, { publicationId: publicationOf(caller), customerId: id });
  }
}
