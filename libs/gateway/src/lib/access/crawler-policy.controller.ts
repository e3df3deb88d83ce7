import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessRequests, type CrawlerPolicy } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { CrawlerPolicyDto, UpdateCrawlerPolicyDto } from './dtos/crawler-policy.dto';

@ApiTags('admin crawler policy')
@Controller('admin/crawler-policy')
export class CrawlerPolicyController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "How the publication's paywalls treat search-engine and AI crawlers; `meter` for both until changed." })
  @ApiOkResponse({ type: CrawlerPolicyDto })
  get(@Caller() caller: Principal): Promise<CrawlerPolicy> {
    return this.bus.request(AccessRequests.GetCrawlerPolicy, { publicationId: sessionOf(caller).publicationId });
  }

  @Put()
  @Auth('session')
  @ApiOperation({ summary: 'Change the crawler policy; omitted fields stay. The next access check sees it.' })
  @ApiOkResponse({ type: CrawlerPolicyDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a rule the field does not take' })
  update(@Caller() caller: Principal, @Body() body: UpdateCrawlerPolicyDto): Promise<CrawlerPolicy> {
    return this.bus.request(AccessRequests.UpdateCrawlerPolicy, { publicationId: sessionOf(caller).publicationId, changes: body });
  }
}
