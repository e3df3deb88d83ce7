import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { MAX_ONE_TIME_PRICES, PAYWALL_PRESENTATIONS, PAYWALL_TYPES, type PaywallConfigInput, type PaywallPresentation, type PaywallType } from '@gatehouse/contracts';
import { PAYWALL_CONFIG_PROPERTY } from './access-views.dto';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

const GLOBS =
  'Globs over the URL path: `*` within one segment, `**` any number of segments, `?` one character; each starts with `/`, has at most 200 characters and 16 wildcards. A publication\'s paywalls hold at most 200 globs of 10,000 characters together.';

export class PaywallMatchDto {
  @ApiProperty({ example: ['/premium/**'], description: GLOBS, minItems: 1, maxItems: 50 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  include: string[];

  @ApiPropertyOptional({ example: ['/premium/free/**'], maxItems: 50 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  exclude?: string[];
}

/** Null or absent fields fall back to the branding copy. */
export class PaywallCopyDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  heading?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  ctaText?: string | null;
}

export class CreatePaywallDto {
  @ApiProperty({ example: 'Premium articles', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({ enum: PAYWALL_TYPES })
  @IsIn(PAYWALL_TYPES)
  type: PaywallType;

  // Checked by the access service against the one schema of the type's settings, which this documents.
  @ApiPropertyOptional(PAYWALL_CONFIG_PROPERTY)
  @IsOptional()
  @IsObject({ message: 'must be an object' })
  config?: PaywallConfigInput;

  @ApiProperty({ type: PaywallMatchDto })
  @IsDefined()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => PaywallMatchDto)
  match: PaywallMatchDto;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'Only visitors of this segment; null: everyone.' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a UUID' })
  segmentId?: string | null;

  @ApiPropertyOptional({ default: 100, minimum: 0, maximum: 1000000, description: 'Of the paywalls covering a page, the lowest priority applies.' })
  @IsOptional()
  @IsInt({ message: 'must be a whole number from 0 to 1000000' })
  @Min(0, { message: 'must be a whole number from 0 to 1000000' })
  @Max(1_000_000, { message: 'must be a whole number from 0 to 1000000' })
  priority?: number;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ enum: PAYWALL_PRESENTATIONS, default: 'modal' })
  @IsOptional()
  @IsIn(PAYWALL_PRESENTATIONS)
  presentation?: PaywallPresentation;

  @ApiPropertyOptional({ type: PaywallCopyDto, nullable: true })
  @IsOptional()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => PaywallCopyDto)
  copy?: PaywallCopyDto | null;

  @ApiPropertyOptional({ type: [String], default: [], maxItems: MAX_ONE_TIME_PRICES, description: "Pass and single-article prices (of this publication's catalogue) the paywall offers beside the subscription plans; at most 5." })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ONE_TIME_PRICES)
  @IsUUID('all', { each: true, message: 'each must be a price id (UUID)' })
  oneTimePriceIds?: string[];
}

/** Every field optional; `match` replaces both lists; null clears `segmentId` and `copy`. A new type without a config starts from `{}`. */
export class UpdatePaywallDto extends PartialType(CreatePaywallDto) {}
