import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BillingRequests, type ProcessorSettingsView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { ProcessorSettingsDto } from './dtos/billing.dto';
import { ProcessorSettingsViewDto } from './dtos/billing-views.dto';


@ApiTags('admin processor settings')
@Controller('admin/processor')
export class AdminProcessorController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The publication's payment-processor settings; secrets are write-only and shown masked." })
  @ApiOkResponse({ type: ProcessorSettingsViewDto })
  get(@Caller() caller: Principal): Promise<ProcessorSettingsView> {
    return this.bus.request(BillingRequests.GetProcessorSettings, { publicationId: sessionOf(caller).publicationId });
  }

  @Put()
  @Auth('session')
  @ApiOperation({
    summary:
      'Save the processor secret key. Without `webhookSecret`, the webhook endpoint (`webhookUrl`, the events billing handles) is created at the processor and its secret stored; with it, that step is skipped.',
  })
  @ApiOkResponse({ type: ProcessorSettingsViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 502, description: '`processor_error`: the processor refused the key or the endpoint; nothing was saved' })
  save(@Caller() caller: Principal, @Body() body: ProcessorSettingsDto): Promise<ProcessorSettingsView> {
    return this.bus.request(BillingRequests.SaveProcessorSettings, { publicationId: sessionOf(caller).publicationId, ...body });
  }
}
