import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessRequests, COUNTRY_CODE, SHARE_TOKEN_PARAMETER, type AccessCheckRequest, type AccessCheckResult, type VisitorAttributes } from '@gatehouse/contracts';
import { checkedPageOf } from '@gatehouse/access-decisions';
import { BusClient } from '@gatehouse/bus';
import type { FastifyRequest } from 'fastify';
import { Auth, RateLimit } from '../edge/credentials';
import { Caller, keyPublicationOf, type Principal } from '../edge/principal';
import { GatewayConfig } from '../gateway.config';
import { AccessCheckQueryDto, AccessCheckResultDto, type VisitorStatementDto } from './dtos/access-check.dto';
import { EdgeDecisions } from './edge-decisions.service';
import { deviceFromUserAgent } from './visitor-device';

@ApiTags('access')
@Controller('access')
export class AccessCheckController {
  constructor(
    private readonly bus: BusClient,
    private readonly config: GatewayConfig,
    private readonly edge: EdgeDecisions,
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
  async check(@Caller() caller: Principal, @Query() query: AccessCheckQueryDto, @Req() request: FastifyRequest): Promise<AccessCheckResult> {
    const domains = caller.apiKey?.domains ?? [];
    // Read once, here: access decides by the page as read (a URL it would refuse is refused here).
    const page = checkedPageOf(query.url, domains);
    const parameters = pageParameters(query.url);
    const check: AccessCheckRequest = {
      publicationId: keyPublicationOf(caller),
      domains,
      page: { hostname: page.hostname, path: page.path },
      customerId: caller.customer?.customerId ?? null,
      customerEmailVerified: caller.customer?.emailVerified,
      userId: query.userId ?? null,
      attributes: visitorAttributesOf(query, request, this.config, false, parameters),
      client: { userAgent: request.headers['user-agent'] ?? null, ip: request.ip ?? null },
      ...shareTokenOf(parameters),
    };
    // Decided here from memory when it needs no more than the rules and entitlements; else by access.
    return (await this.edge.answer(check, page)) ?? this.bus.request(AccessRequests.Check, check);
  }
}

/**
 * The segment attributes of a check. A signal the gateway can read itself wins over the same
 * attribute stated in the query: the CDN's country header when COUNTRY_HEADER is set (the query's
 * `country` is then ignored), the device class of the User-Agent when one is sent, the `utm_*` of
 * the checked page's own URL. `referrer` has no other source. Which of these a reader can change
 * is in docs/access.md ("Segment attributes a reader can state"). Staff trying a URL in the
 * dashboard (`simulated`) state the reader they imagine: there the query wins.
 */
export function visitorAttributesOf(
  query: StatedAttributes,
  request: FastifyRequest,
  config: GatewayConfig,
  simulated = false,
  page = query.url === undefined ? null : pageParameters(query.url),
): VisitorAttributes {
  const userAgent = request.headers['user-agent'];
  const observed = {
    device: userAgent ? deviceFromUserAgent(userAgent) : undefined,
    country: config.COUNTRY_HEADER ? countryOf(request, config) : undefined,
    utmSource: page?.get('utm_source') ?? undefined,
    utmMedium: page?.get('utm_medium') ?? undefined,
    utmCampaign: page?.get('utm_campaign') ?? undefined,
  };
  const stated = { device: query.device, country: query.country, utmSource: query.utm_source, utmMedium: query.utm_medium, utmCampaign: query.utm_campaign };
  const [first, second] = simulated ? [stated, observed] : [observed, stated];
  return {
    referrer: query.referrer,
    device: first.device ?? second.device,
    // With COUNTRY_HEADER set, a reader's own ?country= is never used, even when the header is missing.
    country: (simulated || !config.COUNTRY_HEADER ? (first.country ?? second.country) : observed.country)?.toUpperCase(),
    utmSource: first.utmSource ?? second.utmSource,
    utmMedium: first.utmMedium ?? second.utmMedium,
    utmCampaign: first.utmCampaign ?? second.utmCampaign,
  };
}

/** The segment attributes a reader states, as the access check's query names them, and the page whose `utm_*` are observed. */
export type StatedAttributes = Pick<VisitorStatementDto, 'referrer' | 'device' | 'country' | 'utm_source' | 'utm_medium' | 'utm_campaign'> & { url?: string };

/** The share link token the page URL's query carries (`gh_share`), when it carries a plausible one. */
function shareTokenOf(page: URLSearchParams | null): { shareToken?: string } {
  const token = page?.get(SHARE_TOKEN_PARAMETER);
  return token && token.length <= 128 ? { shareToken: token } : {};
}

/** The checked page URL's query parameters; null when it has none (every caller refused a URL that is not one before; null then too). */
function pageParameters(url: string): URLSearchParams | null {
  // Most pages have no query: a `?` only counts before the fragment.
  const query = url.indexOf('?');
  const fragment = url.indexOf('#');
  if (query < 0 || (fragment >= 0 && fragment < query)) return null;
  try {
    return new URL(url).searchParams;
  } catch {
    return null;
  }
}

/** The CDN's country header (COUNTRY_HEADER), when it carries a two-letter code. */
function countryOf(request: FastifyRequest, config: GatewayConfig): string | undefined {
  const header = config.COUNTRY_HEADER ? request.headers[config.COUNTRY_HEADER.toLowerCase()] : undefined;
  return typeof header === 'string' && COUNTRY_CODE.test(header) ? header : undefined;
}
