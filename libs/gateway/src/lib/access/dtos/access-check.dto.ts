import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ACCESS_REASONS,
  COUNTRY_CODE,
  METER_PERIODS,
  PAYWALL_PRESENTATIONS,
  PAYWALL_TYPES,
  VISITOR_DEVICES,
  type AccessCheckResult,
  type AccessReason,
  type ExperimentAssignment,
  type MeterState,
  type PaywallConfig,
  type PaywallRule,
  type MeterPeriod,
  type PaywallCopy,
  type PaywallPresentation,
  type PaywallType,
  type VisitorDevice,
} from '@gatehouse/contracts';
import { absentOr, hasOnlyKeys, QuickCheck } from '@gatehouse/platform';
import { PAYWALL_CONFIG_PROPERTY, PaywallCopyViewDto } from './access-views.dto';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength, isIn, length, matches, maxLength } from 'class-validator';

const QUERY_KEYS = new Set(['url', 'userId', 'referrer', 'device', 'country', 'utm_source', 'utm_medium', 'utm_campaign']);

/** A query every rule below accepts (the check's fast path; anything else meets class-validator). */
export function isAcceptableAccessCheckQuery(value: unknown): boolean {
  if (!hasOnlyKeys(value, QUERY_KEYS)) return false;
  return (
    maxLength(value['url'], 2048) &&
    absentOr(value['userId'], (v) => length(v, 1, 128)) &&
    absentOr(value['referrer'], (v) => maxLength(v, 2048)) &&
    absentOr(value['device'], (v) => isIn(v, VISITOR_DEVICES)) &&
    absentOr(value['country'], (v) => typeof v === 'string' && matches(v, COUNTRY_CODE)) &&
    absentOr(value['utm_source'], (v) => maxLength(v, 200)) &&
    absentOr(value['utm_medium'], (v) => maxLength(v, 200)) &&
    absentOr(value['utm_campaign'], (v) => maxLength(v, 200))
  );
}

/**
 * What a reader states of themselves beside the page: the access check's parameters, and the same
 * where a segment decides away from a check (an offer limited to one, `ReaderFactsDto`).
 */
export abstract class VisitorStatementDto {
  @ApiPropertyOptional({ maxLength: 128, description: "The site's own visitor id. A valid customer JWT takes its place as the visitor." })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  userId?: string;

  @ApiPropertyOptional({ maxLength: 2048 })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  referrer?: string;

  @ApiPropertyOptional({ enum: VISITOR_DEVICES, description: 'Derived from the User-Agent when one is sent.' })
  @IsOptional()
  @IsIn(VISITOR_DEVICES)
  device?: VisitorDevice;

  @ApiPropertyOptional({ example: 'DE', description: "ISO 3166 alpha-2. With COUNTRY_HEADER set, that request header counts instead (but for staff trying a URL, who state the reader's)." })
  @IsOptional()
  @Matches(COUNTRY_CODE, { message: 'must be an ISO 3166 alpha-2 country code' })
  country?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  utm_source?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  utm_medium?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  utm_campaign?: string;
}

/** The query of `GET /api/v1/access/check` (spec 4.2, decisions E1, E2). */
@QuickCheck(isAcceptableAccessCheckQuery)
export class AccessCheckQueryDto extends VisitorStatementDto {
  @ApiProperty({
    example: 'https://news.example.com/premium/story',
    description: 'The page URL: absolute http(s), on a domain of the publication. A `gh_share=<token>` in it is a share link: the check may grant with `shared_link`.',
  })
  @IsString()
  @MaxLength(2048)
  url: string;
}

/** PaywallRule (whose `config` is typed by its `type`, which a class cannot say). */
class PaywallRuleDto {
  @ApiProperty({ format: 'uuid' }) paywallId: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: PAYWALL_TYPES }) type: PaywallType;
  @ApiProperty(PAYWALL_CONFIG_PROPERTY) config: PaywallConfig;
  @ApiProperty({ enum: PAYWALL_PRESENTATIONS }) presentation: PaywallPresentation;
  @ApiProperty({ type: PaywallCopyViewDto, nullable: true }) copy: PaywallCopy | null;
  @ApiProperty({ type: [String], description: 'Pass and single-article prices offered beside the subscription plans (`GET /api/v1/prices` names their terms).' }) oneTimePriceIds: string[];
}

class MeterDto implements MeterState {
  @ApiProperty() limit: number;
  @ApiProperty({ description: 'Distinct URLs viewed in the period, this view included.' }) used: number;
  @ApiProperty() remaining: number;
  @ApiProperty({ enum: METER_PERIODS }) period: MeterPeriod;
  @ApiProperty({ format: 'date-time', description: 'When the next calendar period (UTC) starts.' }) resetsAt: string;
}

class ExperimentAssignmentDto implements ExperimentAssignment {
  @ApiProperty({ format: 'uuid' }) experimentId: string;
  @ApiProperty({ format: 'uuid' }) variantId: string;
}

class SharedByDto {
  @ApiProperty({ example: 'Ada', description: "The sharer's first name." }) firstName: string;
}

class GrantingOrganisationDto {
  @ApiProperty({ example: 'Acme University', description: 'For "Access provided by …".' }) name: string;
}

export class AccessCheckResultDto implements AccessCheckResult {
  @ApiProperty() granted: boolean;
  @ApiProperty({ enum: ACCESS_REASONS }) reason: AccessReason;
  @ApiPropertyOptional({ type: PaywallRuleDto, description: 'When denied, and as a hint with `soft`: the paywall with the variant applied.' })
  paywallRule?: PaywallRule;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The customer of the JWT; null without one.' }) customerId: string | null;
  @ApiPropertyOptional({ type: MeterDto, description: 'When a metered paywall applied.' }) meter?: MeterDto;
  @ApiPropertyOptional({ type: ExperimentAssignmentDto, description: 'When a running experiment covers the paywall.' })
  experiment?: ExperimentAssignmentDto;
  @ApiPropertyOptional({ type: SharedByDto, description: 'With `shared_link`: who shared the page.' })
  sharedBy?: SharedByDto;
  @ApiPropertyOptional({ type: GrantingOrganisationDto, description: "With `organisation`: the organisation whose seat the reader holds or whose network the check came from." })
  organisation?: GrantingOrganisationDto;
}
