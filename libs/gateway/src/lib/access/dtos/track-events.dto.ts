import { absentOr, hasOnlyKeys, IsTimestamp, parseTimestamp, QuickCheck } from '@gatehouse/platform';
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
  isIn,
  isObject,
  isUUID,
  length,
  maxLength,
} from 'class-validator';

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** At most `bytes` once serialised as JSON (UTF-8). */
function MaxJsonBytes(bytes: number): PropertyDecorator {
  return ValidateBy({
    name: 'maxJsonBytes',
    constraints: [bytes],
    validator: {
      validate: (value: unknown) => jsonBytes(value) <= bytes,
      defaultMessage: () => `must be at most ${bytes / 1024} KiB as JSON`,
    },
  });
}

const EVENT_KEYS = new Set(['type', 'url', 'userId', 'paywallId', 'experimentId', 'variantId', 'data', 'occurredAt']);
const BATCH_KEYS = new Set(['events']);
const isAnyUuid = (value: unknown): boolean => isUUID(value, 'all');

/** An event every rule of TrackEventDto accepts (the intake's fast path; anything else meets class-validator). */
export function isAcceptableTrackEvent(value: unknown): boolean {
  if (!hasOnlyKeys(value, EVENT_KEYS)) return false;
  return (
    isIn(value['type'], TRACK_EVENT_TYPES) &&
    maxLength(value['url'], 2048) &&
    absentOr(value['userId'], (v) => length(v, 1, 128)) &&
    absentOr(value['paywallId'], isAnyUuid) &&
    absentOr(value['experimentId'], isAnyUuid) &&
    absentOr(value['variantId'], isAnyUuid) &&
    absentOr(value['data'], (v) => isObject(v) && jsonBytes(v) <= TRACK_EVENT_DATA_BYTES) &&
    absentOr(value['occurredAt'], (v) => parseTimestamp(v) !== undefined)
  );
}

/** A batch every rule of TrackEventBatchDto accepts. */
export function isAcceptableTrackEventBatch(value: unknown): boolean {
  if (!hasOnlyKeys(value, BATCH_KEYS)) return false;
  const events = value['events'];
  return Array.isArray(events) && events.length >= 1 && events.length <= TRACK_EVENTS_PER_REQUEST && events.every(isAcceptableTrackEvent);
}

/** One track event (decisions E8). */
@QuickCheck(isAcceptableTrackEvent)
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

@QuickCheck(isAcceptableTrackEventBatch)
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
