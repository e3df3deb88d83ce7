import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  EXPERIMENT_STATUSES,
  PAYWALL_PRESENTATIONS,
  PAYWALL_TYPES,
  SEGMENT_ATTRIBUTES,
  SEGMENT_OPERATORS,
  type ExperimentStatus,
  type ExperimentVariant,
  type ExperimentView,
  type PaywallConfig,
  type PaywallConfigInput,
  type PaywallCopy,
  type PaywallMatch,
  type PaywallPresentation,
  type PaywallType,
  type SegmentAttribute,
  type SegmentCondition,
  type SegmentOperator,
  type SegmentValue,
  type SegmentView,
  type VariantOverrides,
} from '@gatehouse/contracts';
import { paywallConfigOpenApi } from '@gatehouse/contracts/paywall-config';
import { PageOf } from '../../edge/api-views';

/* What the paywall, segment and experiment routes answer (decisions E4, E7, H4). */

/** `SegmentValue`: a string, number or boolean, or a list of strings and numbers. */
export const SEGMENT_VALUE_SCHEMA = {
  oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }] } }],
};

/**
 * A paywall's `config`, documented from the one schema of each type's settings (the access
 * service checks every write against it, the dashboard's editor too).
 */
export const PAYWALL_CONFIG_PROPERTY = {
  // anyOf: `{}` is the settings of several types (and fits a registration wall's too).
  anyOf: [...new Map(Object.values(paywallConfigOpenApi()).map((schema) => [JSON.stringify(schema), schema])).values()],
  example: { limit: 3, period: 'month' },
  description:
    'By `type`: metered `{limit: 1-10000, period: day|week|month}`; data `{fields: [{name, label, type: text|email|tel|number|checkbox, required}]}` (1-20 fields); registration `{requireVerifiedEmail?: boolean}`; hard, soft and newsletter `{}`.',
};

export class PaywallCopyViewDto implements PaywallCopy {
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Subscribe to keep reading' }) heading?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) description?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Subscribe' }) ctaText?: string | null;
}

class PaywallMatchViewDto implements PaywallMatch {
  @ApiProperty({ type: [String], example: ['/premium/**'] }) include: string[];
  @ApiProperty({ type: [String], example: [] }) exclude: string[];
}

/** PaywallView (whose `config` is typed by its `type`, which a class cannot say). */
export class PaywallViewDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Premium articles' }) name: string;
  @ApiProperty({ enum: PAYWALL_TYPES, example: 'metered' }) type: PaywallType;
  @ApiProperty(PAYWALL_CONFIG_PROPERTY) config: PaywallConfig;
  @ApiProperty({ type: PaywallMatchViewDto }) match: PaywallMatchViewDto;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) segmentId: string | null;
  @ApiProperty({ example: 10, description: 'The lowest applies first.' }) priority: number;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ enum: PAYWALL_PRESENTATIONS }) presentation: PaywallPresentation;
  @ApiProperty({ type: PaywallCopyViewDto, nullable: true }) copy: PaywallCopyViewDto | null;
  @ApiProperty({ type: [String], description: "Pass and single-article prices (of this publication's catalogue) the paywall offers beside the subscription plans; at most 5." }) oneTimePriceIds: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export const PaywallPageDto = PageOf(PaywallViewDto, 'PaywallPageDto');

class SegmentConditionViewDto implements SegmentCondition {
  @ApiProperty({ enum: SEGMENT_ATTRIBUTES }) attribute: SegmentAttribute;
  @ApiProperty({ enum: SEGMENT_OPERATORS }) operator: SegmentOperator;
  @ApiProperty({ ...SEGMENT_VALUE_SCHEMA, example: 'mobile' })
  value: SegmentValue;
}

export class SegmentViewDto implements SegmentView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Mobile readers' }) name: string;
  @ApiProperty({ enum: ['all', 'any'] }) match: 'all' | 'any';
  @ApiProperty({ type: [SegmentConditionViewDto] }) conditions: SegmentConditionViewDto[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export const SegmentPageDto = PageOf(SegmentViewDto, 'SegmentPageDto');

class VariantOverridesViewDto implements VariantOverrides {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { limit: 5 }, description: "Merged over the paywall's config." }) config?: PaywallConfigInput;
  @ApiPropertyOptional({ enum: PAYWALL_PRESENTATIONS }) presentation?: PaywallPresentation;
  @ApiPropertyOptional({ type: PaywallCopyViewDto }) copy?: PaywallCopyViewDto;
}

class ExperimentVariantViewDto implements ExperimentVariant {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Five free articles' }) name: string;
  @ApiProperty({ example: 50 }) weight: number;
  @ApiProperty({ type: VariantOverridesViewDto }) overrides: VariantOverridesViewDto;
}

export class ExperimentViewDto implements ExperimentView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Meter limit test' }) name: string;
  @ApiProperty({ format: 'uuid' }) paywallId: string;
  @ApiProperty({ enum: EXPERIMENT_STATUSES }) status: ExperimentStatus;
  @ApiProperty({ type: [ExperimentVariantViewDto] }) variants: ExperimentVariantViewDto[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) stoppedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export const ExperimentPageDto = PageOf(ExperimentViewDto, 'ExperimentPageDto');
