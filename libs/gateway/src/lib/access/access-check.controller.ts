import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessRequests, COUNTRY_CODE, type AccessCheckResult, type VisitorAttributes } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import type { FastifyRequest } from 'fastify';
import { Auth, RateLimit } from '../edge/credentials';
import { Caller, keyPublicationOf, type Principal } from '../edge/principal';
import { GatewayConfig } from '../gateway.config';
import { AccessCheckQueryDto, AccessCheckResultDto } from './dtos/access-check.dto';
import { deviceFromUserAgent } from './visitor-device';

@ApiTags('access')
@Controller('access')
export class AccessCheckController {
  constructor(
    private readonly bus: BusClient,
    private readonly config: GatewayConfig,
  ) {}

  @Get('check')
  @Auth('publishable')
  @RateLimit('access-check')
  @ApiOperation({
    summary: 'May this visitor read this URL?',
    description:
      'The visitor is the customer of a valid Bearer JWT, else `userId`, else anonymous. A check carrying both a JWT and `userId` links that visitor to the customer for good, so the meter follows the reader across logging in.',
  })
  @ApiHeader({ name: 'Authorization', required: false, description: 'Bearer <customer access token>; an invalid or expired one answers 401.' })
  @ApiOkResponse({ type: AccessCheckResultDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: `url` is not an absolute http(s) URL, or another parameter is invalid' })
  @ApiResponse({ status: 403, description: "`url_not_in_publication`: the URL's host is not a domain of the key's publication" })
  check(@Caller() caller: Principal, @Query() query: AccessCheckQueryDto, @Req() request: FastifyRequest): Promise<AccessCheckResult> {
    return this.bus.request(AccessRequests.Check, {
      publicationId: keyPublicationOf(caller),
      domains: caller.apiKey?.domains ?? [],
      url: query.url,
      customerId: caller.customer?.customerId ?? null,
      customerEmailVerified: caller.customer?.emailVerified,
      userId: query.userId ?? null,
      attributes: visitorAttributesOf(query, request, this.config),
      client: { userAgent: request.headers['user-agent'] ?? null, ip: request.ip ?? null },
    });
  }
}

/** The segment attributes of a check: from the query, else the User-Agent and the CDN's country header. */
export function visitorAttributesOf(query: AccessCheckQueryDto, request: FastifyRequest, config: GatewayConfig): VisitorAttributes {
  return {
    referrer: query.referrer,
    device: query.device ?? deviceFromUserAgent(request.headers['user-agent']),
    country: (query.country ?? countryOf(request, config))?.toUpperCase(),
    utmSource: query.utm_source,
    utmMedium: query.utm_medium,
    utmCampaign: query.utm_campaign,
  };
}

/** The CDN's country header (COUNTRY_HEADER), when it carries a two-letter code. */
function countryOf(request: FastifyRequest, config: GatewayConfig): string | undefined {
  const header = config.COUNTRY_HEADER ? request.headers[config.COUNTRY_HEADER.toLowerCase()] : undefined;
  return typeof header === 'string' && COUNTRY_CODE.test(header) ? header : undefined;
}
