import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  PAST_DUE_GRACE_DAYS_MAX,
  PAUSE_MONTHS_MAX,
  PAUSED_ACCESS_MODES,
  PLAN_CHANGE_TIMINGS,
  type PausedAccess,
  type PlanChangeLine,
  type PlanChangePreview,
  type PlanChangeResult,
  type PlanChangeTiming,
  type SubscriptionSettingsChange,
  type SubscriptionSettingsView,
} from '@gatehouse/contracts';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { SubscriptionViewDto } from './billing-views.dto';

const UUID_MESSAGE = { message: 'must be a UUID' };

/* Plan changes, pauses and the setting a pause follows (issue #27, items 1 and 3). */

export class SubscriptionIdDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  subscriptionId: string;
}

export class PlanChangeDto extends SubscriptionIdDto {
  @ApiProperty({ format: 'uuid', description: 'The price to switch to: a monthly or yearly price of the publication, in the currency of the subscription.' })
  @IsUUID('all', UUID_MESSAGE)
  priceId: string;

  @ApiPropertyOptional({
    enum: PLAN_CHANGE_TIMINGS,
    description: '`now` (prorated at once) or `period_end`. Default: `now` for an upgrade, `period_end` for a downgrade (a cheaper monthly-equivalent amount).',
  })
  @IsOptional()
  @IsIn(PLAN_CHANGE_TIMINGS, { message: `must be one of ${PLAN_CHANGE_TIMINGS.join(', ')}` })
  when?: PlanChangeTiming;
}

export class PauseDto extends SubscriptionIdDto {
  @ApiProperty({ minimum: 1, maximum: PAUSE_MONTHS_MAX, description: 'How many months collection pauses; the processor resumes it by itself then.' })
  @IsInt({ message: 'must be a whole number' })
  @Min(1)
  @Max(PAUSE_MONTHS_MAX)
  months: number;
}

const PAUSED_ACCESS_DESCRIPTION = '`keep` (default): a paused subscription entitles as before; `suspend`: it does not until it resumes.';
const GRACE_DESCRIPTION = `Days a past_due subscription keeps access (0-${PAST_DUE_GRACE_DAYS_MAX}); null: the service's PAST_DUE_GRACE_DAYS (3 unless configured).`;

export class SubscriptionSettingsDto implements SubscriptionSettingsView {
  @ApiProperty({ enum: PAUSED_ACCESS_MODES, description: PAUSED_ACCESS_DESCRIPTION })
  pausedAccess: PausedAccess;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: PAST_DUE_GRACE_DAYS_MAX, description: GRACE_DESCRIPTION })
  pastDueGraceDays: number | null;
}

/** A change of the settings: a field left out stays as it is. */
export class SubscriptionSettingsChangeDto implements SubscriptionSettingsChange {
  @ApiPropertyOptional({ enum: PAUSED_ACCESS_MODES, description: PAUSED_ACCESS_DESCRIPTION })
  @IsOptional()
  @IsIn(PAUSED_ACCESS_MODES, { message: `must be one of ${PAUSED_ACCESS_MODES.join(', ')}` })
  pausedAccess?: PausedAccess;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0, maximum: PAST_DUE_GRACE_DAYS_MAX, description: GRACE_DESCRIPTION })
  @IsOptional()
  @IsInt({ message: 'must be a whole number' })
  @Min(0)
  @Max(PAST_DUE_GRACE_DAYS_MAX)
  pastDueGraceDays?: number | null;
}

export class PlanChangeLineDto implements PlanChangeLine {
  @ApiProperty({ example: 'Unused time on Digital after 27 Nov 2026' }) description: string;
  @ApiProperty({ description: 'Minor units; a credit is negative.' }) amount: number;
  @ApiProperty({ description: 'A proration of the unused or remaining time.' }) proration: boolean;
  @ApiProperty({ format: 'date-time' }) periodStart: string;
  @ApiProperty({ format: 'date-time' }) periodEnd: string;
}

export class PlanChangePreviewDto implements PlanChangePreview {
  @ApiProperty({ format: 'uuid' }) subscriptionId: string;
  @ApiProperty({ format: 'uuid' }) fromPriceId: string;
  @ApiProperty({ format: 'uuid' }) toPriceId: string;
  @ApiProperty({ enum: ['upgrade', 'downgrade'], description: 'By the monthly-equivalent amount of the two prices.' }) direction: 'upgrade' | 'downgrade';
  @ApiProperty({ enum: PLAN_CHANGE_TIMINGS }) when: PlanChangeTiming;
  @ApiProperty({ format: 'date-time', description: 'When the new price applies.' }) effectiveAt: string;
  @ApiProperty({ example: 'eur' }) currency: string;
  @ApiProperty({ description: 'Charged when the change is made, in minor units (0 at the period end; a larger credit stays on the balance).' }) amountDue: number;
  @ApiProperty({ type: [PlanChangeLineDto], description: "The processor's invoice lines for a change now; empty at the period end." }) lines: PlanChangeLineDto[];
  @ApiProperty({ description: 'The regular amount of the new price.' }) nextAmount: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the new price is next charged in full.' }) nextChargeAt: string | null;
}

export class PlanChangeResultDto implements PlanChangeResult {
  @ApiProperty({ type: PlanChangePreviewDto, description: 'What the change did, as previewed at the same moment.' }) preview: PlanChangePreviewDto;
  @ApiProperty({ type: SubscriptionViewDto }) subscription: SubscriptionViewDto;
}
