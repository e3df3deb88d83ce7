import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OUTBOUND_EVENT_NAMES } from '@gatehouse/contracts';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, IsUrl, MaxLength, ValidateBy, ValidateIf } from 'class-validator';

/** PostgreSQL text cannot hold NUL: refused here rather than failing when stored. */
function WithoutNul(): PropertyDecorator {
  return ValidateBy({
    name: 'withoutNul',
    validator: { validate: (value: unknown) => typeof value !== 'string' || !value.includes('\u0000'), defaultMessage: () => 'must not contain NUL characters' },
  });
}

/** The shape only: webhooks-out applies the URL policy (https, no private network) it alone is configured for. */
const WebhookUrl = () =>
  applyDecorators(IsString(), MaxLength(2048), WithoutNul(), IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'must be an absolute https URL' }));

const WebhookEvents = () =>
  applyDecorators(
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(OUTBOUND_EVENT_NAMES.length),
    IsIn(OUTBOUND_EVENT_NAMES, { each: true, message: `each event must be one of: ${OUTBOUND_EVENT_NAMES.join(', ')}` }),
  );

const WebhookDescription = () => applyDecorators(IsOptional(), IsString(), MaxLength(500), WithoutNul());

const URL_DOC = {
  example: 'https://hooks.example.com/gatehouse',
  maxLength: 2048,
  description: 'https; its host must not resolve to a private, loopback or link-local address (both allowed when ALLOW_INSECURE_WEBHOOK_URLS=true).',
};
const EVENTS_DOC = { example: ['subscription.created', 'subscription.cancelled'], enum: OUTBOUND_EVENT_NAMES, isArray: true, description: 'Events of spec 6.2.' };
const DESCRIPTION_DOC = { type: String, maxLength: 500, nullable: true, example: 'CRM sync' };

export class CreateWebhookDto {
  @ApiProperty(URL_DOC)
  @WebhookUrl()
  url: string;

  @ApiProperty(EVENTS_DOC)
  @WebhookEvents()
  events: string[];

  @ApiPropertyOptional(DESCRIPTION_DOC)
  @WebhookDescription()
  description?: string | null;
}

/** Omitted fields stay as they are; `description: null` clears it (`url` and `events` cannot be null). */
export class UpdateWebhookDto {
  @ApiPropertyOptional(URL_DOC)
  @ValidateIf((dto: UpdateWebhookDto) => dto.url !== undefined)
  @WebhookUrl()
  url?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @ValidateIf((dto: UpdateWebhookDto) => dto.events !== undefined)
  @WebhookEvents()
  events?: string[];

  @ApiPropertyOptional(DESCRIPTION_DOC)
  @WebhookDescription()
  description?: string | null;
}
