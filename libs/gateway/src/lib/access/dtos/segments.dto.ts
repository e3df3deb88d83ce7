import { ApiProperty, PartialType } from '@nestjs/swagger';
import { SEGMENT_ATTRIBUTES, SEGMENT_OPERATORS, type SegmentAttribute, type SegmentOperator, type SegmentValue } from '@gatehouse/contracts';
import { Type } from 'class-transformer';
import { SEGMENT_VALUE_SCHEMA } from './access-views.dto';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsString, Length, ValidateNested } from 'class-validator';

export class SegmentConditionDto {
  @ApiProperty({ enum: SEGMENT_ATTRIBUTES })
  @IsIn(SEGMENT_ATTRIBUTES)
  attribute: SegmentAttribute;

  @ApiProperty({
    enum: SEGMENT_OPERATORS,
    description: 'authenticated, subscriber: eq, neq. visit_count: eq, neq, in, gt, lt. The text attributes: eq, neq, contains, in.',
  })
  @IsIn(SEGMENT_OPERATORS)
  operator: SegmentOperator;

  @ApiProperty({ ...SEGMENT_VALUE_SCHEMA, description: 'true/false, a number or a string as the attribute takes; a list of 1-100 of them for `in`.', example: 'mobile' })
  @IsDefined()
  value: SegmentValue;
}

export class CreateSegmentDto {
  @ApiProperty({ example: 'Mobile readers from search', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({ enum: ['all', 'any'], description: 'all: every condition holds; any: at least one.' })
  @IsIn(['all', 'any'])
  match: 'all' | 'any';

  @ApiProperty({ type: [SegmentConditionDto], minItems: 1, maxItems: 20 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => SegmentConditionDto)
  conditions: SegmentConditionDto[];
}

export class UpdateSegmentDto extends PartialType(CreateSegmentDto) {}
