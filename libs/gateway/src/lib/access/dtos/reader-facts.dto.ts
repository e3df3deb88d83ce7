import { ApiPropertyOptional } from '@nestjs/swagger';
import { COUNTRY_CODE, VISITOR_DEVICES, type ReaderFacts, type VisitorDevice } from '@gatehouse/contracts';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';

/**
 * What a reader states of themselves away from an access check, where a segment decides (an offer
 * limited to one, docs/billing.md): the access check's own parameters, read by the same rules.
 */
export class ReaderFactsDto implements ReaderFacts {
  @ApiPropertyOptional({
    example: 'https://news.example.com/premium/story?utm_campaign=spring',
    maxLength: 2048,
    description: "The page the reader is on, on a domain of the publication: its path and `utm_*` are the reader's, as for an access check of it.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ maxLength: 128, description: "The site's own visitor id, as sent with access checks: its visits count (a customer JWT's visits count anyway)." })
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

  @ApiPropertyOptional({ example: 'DE', description: 'ISO 3166 alpha-2; with COUNTRY_HEADER set, only that header counts.' })
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
