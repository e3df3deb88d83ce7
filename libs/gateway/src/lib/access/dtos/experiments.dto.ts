import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { PAYWALL_PRESENTATIONS, type PaywallPresentation } from '@gatehouse/contracts';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { PaywallCopyDto } from './paywalls.dto';

export class VariantOverridesDto {
  @ApiPropertyOptional({ example: { limit: 5 }, description: "Merged over the paywall's config; the result must suit the paywall's type." })
  @IsOptional()
  @IsObject({ message: 'must be an object' })
  config?: Record<string, unknown>;

  @ApiPropertyOptional({ enum: PAYWALL_PRESENTATIONS })
  @IsOptional()
  @IsIn(PAYWALL_PRESENTATIONS)
  presentation?: PaywallPresentation;

  @ApiPropertyOptional({ type: PaywallCopyDto, description: "Merged over the paywall's copy." })
  @IsOptional()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => PaywallCopyDto)
  copy?: PaywallCopyDto;

  @ApiPropertyOptional({ example: 'SPRING3', description: "An offer's code: the paywall offers it to the variant's visitors (`paywallRule.offerCode`). It must be an offer of the publication that can be redeemed now." })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{3,40}$/, { message: 'must be an offer code: 3 to 40 letters, digits, - or _' })
  offerCode?: string;
}

export class ExperimentVariantDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'To keep a variant of this experiment when changing the variants; new ones get an id.' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a UUID' })
  id?: string;

  @ApiProperty({ example: 'Five free articles', minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ minimum: 0, maximum: 1000, description: "Relative: a variant's share of visitors is its weight over the sum of the weights." })
  @IsInt({ message: 'must be a whole number from 0 to 1000' })
  @Min(0, { message: 'must be a whole number from 0 to 1000' })
  @Max(1000, { message: 'must be a whole number from 0 to 1000' })
  weight: number;

  @ApiPropertyOptional({ type: VariantOverridesDto })
  @IsOptional()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => VariantOverridesDto)
  overrides?: VariantOverridesDto;
}

export class CreateExperimentDto {
  @ApiProperty({ example: 'Meter limit test', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  paywallId: string;

  @ApiProperty({ type: [ExperimentVariantDto], minItems: 2, maxItems: 10 })
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => ExperimentVariantDto)
  variants: ExperimentVariantDto[];
}

/** The name at any time; the variants only while a draft. */
export class UpdateExperimentDto extends PartialType(OmitType(CreateExperimentDto, ['paywallId'] as const)) {}
