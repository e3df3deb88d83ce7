import { IsTimestamp } from '@gatehouse/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TRACK_EVENT_DATA_BYTES, TRACK_EVENT_TYPES, TRACK_EVENTS_PER_REQUEST, type TrackEventType } from '@gatehouse/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';

/** At most `bytes` once serialised as JSON (UTF-8). */
function MaxJsonBytes(bytes: number): PropertyDecorator {
  return ValidateBy({
    name: 'maxJsonBytes',
    constraints: [bytes],
    validator: {
      validate: (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') <= bytes,
      defaultMessage: () => `must be at most ${bytes / 1024} KiB as JSON`,
    },
  });
}

/** One track event (decisions E8). */
export class TrackEventDto {
  @ApiProperty({ enum: TRACK_EVENT_TYPES })
  @IsIn(TRACK_EVENT_TYPES)
  type: TrackEventType;

  @ApiProperty({ example: 'https://news.example.com/premium/story', description: 'The page, on a domain of the publication.' })
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiPropertyOptional({ maxLength: 128, description: "The site's visitor id; a customer JWT, when sent, identifies the customer too." })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  userId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required for paywall_shown, paywall_dismissed and paywall_converted.' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a UUID' })
  paywallId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'With variantId, on paywall events: the variant shown (the access check gave both).' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a UUID' })
  experimentId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a UUID' })
  variantId?: string;

  @ApiPropertyOptional({ description: `Free-form object, at most ${TRACK_EVENT_DATA_BYTES / 1024} KiB as JSON: the newsletter email, the data-wall fields.` })
  @IsOptional()
  @IsObject({ message: 'must be an object' })
  @MaxJsonBytes(TRACK_EVENT_DATA_BYTES)
  data?: Record<string, unknown>;

  @ApiPropertyOptional({ format: 'date-time', description: 'Within the last 7 days; the time of receipt when absent.' })
  @IsOptional()
  @IsTimestamp()
  occurredAt?: string;
}

export class TrackEventBatchDto {
  @ApiProperty({ type: [TrackEventDto], minItems: 1, maxItems: TRACK_EVENTS_PER_REQUEST })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TRACK_EVENTS_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => TrackEventDto)
  events: TrackEventDto[];
}

export class TrackEventsAcceptedDto {
  @ApiProperty({ description: 'How many events were recorded.' }) accepted: number;
}
