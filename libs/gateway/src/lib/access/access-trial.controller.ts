import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessRequests, AdminRequests, type AccessCheckResult } from '@gatehouse/contracts';
import { checkedPageOf } from '@gatehouse/access-decisions';
import { BusClient } from '@gatehouse/bus';
import type { FastifyRequest } from 'fastify';
import { Auth } from '../edge/credentials';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { GatewayConfig } from '../gateway.config';
import { visitorAttributesOf } from './access-check.controller';
import { AccessCheckQueryDto, AccessCheckResultDto } from './dtos/access-check.dto';

@ApiTags('admin paywalls')
@Controller('admin/access')
export class AccessTrialController {
  constructor(
    private readonly bus: BusClient,
    private readonly config: GatewayConfig,
  ) {}

  @Get('try')
  @Auth('session')
  @ApiOperation({
    summary: 'Try a URL: the decision an anonymous visitor with these attributes would get, counted in no stats.',
    description: '`userId` is ignored: a trial is always anonymous, so it never uses up or changes anyone’s meter.',
  })
  @ApiOkResponse({ type: AccessCheckResultDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: `url` is not an absolute http(s) URL' })
  @ApiResponse({ status: 403, description: "`url_not_in_publication`: the URL's host is not a domain of the current publication" })
  async try(@Caller() caller: Principal, @Query() query: AccessCheckQueryDto, @Req() request: FastifyRequest): Promise<AccessCheckResult> {
    const session = sessionOf(caller);
    const { publication } = await this.bus.request(AdminRequests.GetSession, { sessionId: session.sessionId });
    const { hostname, path } = checkedPageOf(query.url, publication.domains);
    return this.bus.request(AccessRequests.Check, {
      publicationId: session.publicationId,
      domains: publication.domains,
      page: { hostname, path },
      customerId: null,
      userId: null,
      attributes: visitorAttributesOf(query, request, this.config, true),
      trial: true,
    });
  }
}
