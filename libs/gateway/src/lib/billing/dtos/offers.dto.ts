import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOmittable, IsTimestamp } from '@gatehouse/platform';
import {
  OFFER_DURATIONS,
  OFFER_KINDS,
  type NewOffer,
  type OfferDuration,
  type OfferKind,
  type OfferTerms,
  type OfferView,
} from '@gatehouse/contracts';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { PageOf } from '../../edge/api-views';
import { ReaderFactsDto } from '../../access/dtos/reader-facts.dto';

const CODE_RULE = /^[A-Za-z0-9_-]{3,40}$/;
const CODE_MESSAGE = { message: 'must be 3 to 40 letters, digits, - or _' };

/* Offers (docs/billing.md): staff create them; readers redeem them by code. */

export class CreateOfferDto implements NewOffer {
  @ApiProperty({ example: 'SPRING3', description: 'What readers type; case-insensitive, stored upper case, unique in the publication.' })
  @IsString()
  @Matches(CODE_RULE, CODE_MESSAGE)
  code: string;

  @ApiProperty({ example: 'Spring: €3 for 3 months', minLength: 1, maxLength: 100, description: 'Shown to readers beside the terms.' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ enum: OFFER_KINDS, description: '`percent` or `amount` off (an introductory price is an amount off for some months), or a `trial` of `trialDays`.' })
  @IsIn(OFFER_KINDS)
  kind: OfferKind;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, description: 'For `percent`.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  percentOff?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'For `amount`: minor units off each discounted invoice.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(99_999_999)
  amountOff?: number;

  @ApiPropertyOptional({ example: 'eur', description: 'For `amount`: the currency of its prices.' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @Matches(/^[a-z]{3}$/, { message: 'must be a three-letter ISO 4217 code' })
  currency?: string;

  @ApiPropertyOptional({ enum: OFFER_DURATIONS, description: 'For a discount: the first invoice, `durationInMonths` months, or for good.' })
  @IsOptional()
  @IsIn(OFFER_DURATIONS)
  duration?: OfferDuration;

  @ApiPropertyOptional({ minimum: 1, maximum: 36, description: 'For a `repeating` discount.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(36)
  durationInMonths?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 730, description: "For `trial`: free days, instead of the price's own." })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(730)
  trialDays?: number;

  @ApiPropertyOptional({ type: [String], description: 'The prices it applies to; empty (the default): every price.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true, message: 'each must be a price id (UUID)' })
  priceIds?: string[];

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, description: 'How many subscriptions may start with it; null: no limit.' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxRedemptions?: number | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'Before it, the code is unknown to readers.' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsTimestamp()
  startsAt?: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'From it on, the code is refused with `offer_expired`.' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsTimestamp()
  endsAt?: string | null;

  @ApiPropertyOptional({ default: false, description: 'Refused to a customer who had any subscription of the publication.' })
  @IsOptional()
  @IsBoolean()
  newCustomersOnly?: boolean;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Only for readers in this segment of the publication, decided as for a paywall (404 for another publication’s); null: every reader.',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsUUID('all', { message: 'must be a segment id (UUID)' })
  segmentId?: string | null;
}

export class UpdateOfferDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @IsOmittable()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ description: 'false ends it: its code is refused with `offer_expired`.' })
  @IsOmittable()
  @IsBoolean()
  active?: boolean;
}

/** A code, and the reader as an access check would see them (an offer limited to a segment is decided on it). */
export class OfferCodeQueryDto extends ReaderFactsDto {
  @ApiProperty({ example: 'SPRING3' })
  @Matches(CODE_RULE, CODE_MESSAGE)
  code: string;
}

export class OfferTermsDto implements OfferTerms {
  @ApiProperty({ example: 'SPRING3' }) code: string;
  @ApiProperty({ example: 'Spring: €3 for 3 months' }) name: string;
  @ApiProperty({ enum: OFFER_KINDS }) kind: OfferKind;
  @ApiProperty({ type: Number, nullable: true }) percentOff: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Minor units.' }) amountOff: number | null;
  @ApiProperty({ type: String, nullable: true }) currency: string | null;
  @ApiProperty({ enum: OFFER_DURATIONS, nullable: true }) duration: OfferDuration | null;
  @ApiProperty({ type: Number, nullable: true }) durationInMonths: number | null;
  @ApiProperty({ type: Number, nullable: true }) trialDays: number | null;
  @ApiProperty({ type: [String], description: 'Empty: every price.' }) priceIds: string[];
  @ApiProperty() newCustomersOnly: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) endsAt: string | null;
}

export class OfferViewDto extends OfferTermsDto implements OfferView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: Number, nullable: true }) maxRedemptions: number | null;
  @ApiProperty({ description: 'Subscriptions started with it.' }) redemptions: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startsAt: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Only for readers in this segment; null: every reader.' }) segmentId: string | null;
  @ApiProperty() active: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export const OfferPageDto = PageOf(OfferViewDto, 'OfferPageDto');
