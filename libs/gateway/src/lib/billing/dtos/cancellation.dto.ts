import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CANCELLATION_REASONS,
  PAUSE_MONTHS_MAX,
  SAVE_KINDS,
  WIN_BACK_DAYS_MAX,
  type CancellationReason,
  type SaveAcceptance,
  type SaveKind,
  type WinBackSettingsChange,
  type WinBackSettingsView,
} from '@gatehouse/contracts';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { OfferedPriceViewDto, SubscriptionViewDto } from './billing-views.dto';
import { OfferTermsDto } from './offers.dto';
import { SubscriptionIdDto } from './subscription-changes.dto';

/* Cancellation that tries to save, and win-back (issue #27 items 2 and 5; docs/billing.md). */

const UUID_MESSAGE = { message: 'must be a UUID' };
const REASON_MESSAGE = { message: `must be one of ${CANCELLATION_REASONS.join(', ')}` };

/** One object for the three kinds: `offerId` for `discount`, `months` for `pause`, `priceId` for `plan_change`. */
export class SaveOfferSettingDto {
  @ApiProperty({ enum: SAVE_KINDS, description: '`discount`: the offer applied to the subscription at the processor; `pause`: collection paused; `plan_change`: the switch to a cheaper price at the period end.' })
  @IsIn(SAVE_KINDS, { message: `must be one of ${SAVE_KINDS.join(', ')}` })
  kind: SaveKind;

  @ApiPropertyOptional({ format: 'uuid', description: 'For `discount`: a percent or amount offer of the publication.' })
  @ValidateIf((save: SaveOfferSettingDto) => save.kind === 'discount')
  @IsUUID('all', UUID_MESSAGE)
  offerId?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: PAUSE_MONTHS_MAX, description: 'For `pause`.' })
  @ValidateIf((save: SaveOfferSettingDto) => save.kind === 'pause')
  @IsInt({ message: 'must be a whole number' })
  @Min(1)
  @Max(PAUSE_MONTHS_MAX)
  months?: number;

  @ApiPropertyOptional({ format: 'uuid', description: "For `plan_change`: a monthly or yearly price; offered only to subscriptions it is cheaper for, in their currency." })
  @ValidateIf((save: SaveOfferSettingDto) => save.kind === 'plan_change')
  @IsUUID('all', UUID_MESSAGE)
  priceId?: string;
}

export class CancellationReasonSettingDto {
  @ApiProperty({ enum: CANCELLATION_REASONS, description: "The processor's own cancellation feedback value." })
  @IsIn(CANCELLATION_REASONS, REASON_MESSAGE)
  reason: CancellationReason;

  @ApiProperty({ type: String, nullable: true, maxLength: 120, description: "What readers read; null: the account element's own words in the reader's language. Shown as text, never as HTML." })
  @ValidateIf((setting: CancellationReasonSettingDto) => setting.label !== null)
  @IsString()
  @Length(1, 120)
  label: string | null;

  @ApiProperty({ description: 'Whether readers are offered this reason.' })
  @IsBoolean()
  enabled: boolean;

  @ApiProperty({ type: SaveOfferSettingDto, nullable: true })
  @ValidateIf((setting: CancellationReasonSettingDto) => setting.save !== null)
  @ValidateNested()
  @Type(() => SaveOfferSettingDto)
  save: SaveOfferSettingDto | null;
}

export class CancellationReasonsDto {
  @ApiProperty({ type: [CancellationReasonSettingDto], description: 'Every reason once, in the order readers see the enabled ones.' })
  @IsArray()
  @ArrayMaxSize(CANCELLATION_REASONS.length)
  @ValidateNested({ each: true })
  @Type(() => CancellationReasonSettingDto)
  reasons: CancellationReasonSettingDto[];
}

export class CancellationOptionsQueryDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  subscriptionId: string;
}

/** A save offer as the reader is shown it: `offer` for `discount`, `months` for `pause`, `price` for `plan_change`. */
class SaveOfferViewDto {
  @ApiProperty({ enum: SAVE_KINDS }) kind: SaveKind;
  @ApiPropertyOptional({ type: OfferTermsDto }) offer?: OfferTermsDto;
  @ApiPropertyOptional({ minimum: 1, maximum: PAUSE_MONTHS_MAX }) months?: number;
  @ApiPropertyOptional({ type: OfferedPriceViewDto }) price?: OfferedPriceViewDto;
}

class CancellationOptionDto {
  @ApiProperty({ enum: CANCELLATION_REASONS }) reason: CancellationReason;
  @ApiProperty({ type: String, nullable: true, description: "Staff's label; null: the reader's language's own words." }) label: string | null;
  @ApiProperty({ type: SaveOfferViewDto, nullable: true, description: 'None when the reason has none, or it does not apply to this subscription.' }) save: SaveOfferViewDto | null;
}

export class CancellationOptionsDto {
  @ApiProperty({ type: [CancellationOptionDto], description: 'The enabled reasons, in the publication\'s order.' }) reasons: CancellationOptionDto[];
}

export class AcceptSaveDto extends SubscriptionIdDto {
  @ApiProperty({ enum: CANCELLATION_REASONS, description: 'The reason the reader picked: its save offer is applied.' })
  @IsIn(CANCELLATION_REASONS, REASON_MESSAGE)
  reason: CancellationReason;
}

export class SaveAcceptanceDto implements SaveAcceptance {
  @ApiProperty({ enum: SAVE_KINDS }) kind: SaveKind;
  @ApiProperty({ type: SubscriptionViewDto }) subscription: SubscriptionViewDto;
}

const DAYS_DESCRIPTION = `Days after a cancellation takes effect (1-${WIN_BACK_DAYS_MAX}).`;

export class WinBackSettingsDto implements WinBackSettingsView {
  @ApiProperty({ description: 'Off by default.' }) enabled: boolean;
  @ApiProperty({ minimum: 1, maximum: WIN_BACK_DAYS_MAX, description: DAYS_DESCRIPTION }) days: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The offer the email carries (its code, and a link to the site with it).' }) offerId: string | null;
}

/** A field left out stays as it is; turning it on needs an offer. */
export class WinBackSettingsChangeDto implements WinBackSettingsChange {
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: WIN_BACK_DAYS_MAX, description: DAYS_DESCRIPTION })
  @IsOptional()
  @IsInt({ message: 'must be a whole number' })
  @Min(1)
  @Max(WIN_BACK_DAYS_MAX)
  days?: number;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((change: WinBackSettingsChangeDto) => change.offerId !== null)
  @IsUUID('all', UUID_MESSAGE)
  offerId?: string | null;
}
