import { IsOmittable, IsTimestamp } from '@gatehouse/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CANCELLATION_REASONS, MAX_PASS_HOURS, PRICE_INTERVALS, SUBSCRIPTION_STATUSES, type CancellationReason, type PriceInterval, type SubscriptionStatus } from '@gatehouse/contracts';
import { PageQueryDto } from '../../edge/page-query.dto';
import { Transform, Type } from 'class-transformer';
import { ReaderFactsDto } from '../../access/dtos/reader-facts.dto';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  ValidateIf,
} from 'class-validator';

const URL_RULE = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
const URL_MESSAGE = { message: 'must be an absolute http(s) URL' };
const UUID_MESSAGE = { message: 'must be a UUID' };

/* Customer-facing subscription routes (spec 2.5, 4.3; decisions F5-F8). */

export class SubscriptionsMeQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Required with a secret key; with a customer JWT, the token's customer (another id is 403)." })
  @IsOptional()
  @IsUUID('all', UUID_MESSAGE)
  customerId?: string;
}

export class CheckoutDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  priceId: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Required with a secret key; with a customer JWT, the token's customer (another id is 403)." })
  @IsOptional()
  @IsUUID('all', UUID_MESSAGE)
  customerId?: string;

  @ApiProperty({ example: 'https://news.example/welcome' })
  @IsUrl(URL_RULE, URL_MESSAGE)
  @MaxLength(2048)
  successUrl: string;

  @ApiProperty({ example: 'https://news.example/subscribe' })
  @IsUrl(URL_RULE, URL_MESSAGE)
  @MaxLength(2048)
  cancelUrl: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The experiment the paywall showed; its conversion is announced (`experiment.converted`) when the checkout completes.' })
  @IsOptional()
  @IsUUID('all', UUID_MESSAGE)
  experimentId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required with `experimentId`.' })
  @ValidateIf((dto: CheckoutDto) => dto.experimentId !== undefined || dto.variantId !== undefined)
  @IsUUID('all', UUID_MESSAGE)
  variantId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The paywall that led here, carried into `experiment.converted`.' })
  @IsOptional()
  @IsUUID('all', UUID_MESSAGE)
  paywallId?: string;

  @ApiPropertyOptional({ example: 'SPRING3', description: "An offer's code (case-insensitive): its discount or trial applies at the processor." })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{3,40}$/, { message: 'must be an offer code: 3 to 40 letters, digits, - or _' })
  offerCode?: string;

  @ApiPropertyOptional({ example: 'https://news.example/premium/story', description: 'A single-article price: the page it buys (required then, refused for any other price); on a domain of the publication.' })
  @IsOptional()
  @IsUrl(URL_RULE, URL_MESSAGE)
  // The processor keeps it in the session's metadata, whose values it limits to 500 characters.
  @MaxLength(500)
  articleUrl?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 10_000,
    description: "A group purchase: this many seats of a recurring price, charged per seat; once paid, an organisation of the price's product with the buyer as its manager (docs/organisations.md).",
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  seats?: number;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'With `seats`: the organisation’s name (the buyer’s name otherwise).' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  organisationName?: string;

  @ApiPropertyOptional({
    type: ReaderFactsDto,
    description: 'The reader as an access check sees them (the page they are on, `userId`, stated attributes): an offer limited to a segment is decided on it, with the customer.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ReaderFactsDto)
  reader?: ReaderFactsDto;
}

export class ConfirmCheckoutDto {
  @ApiProperty({ example: 'cs_test_a1', description: "The processor's checkout session id: `sessionId` of the checkout, or `{CHECKOUT_SESSION_ID}` of the success URL." })
  @Matches(/^cs_[A-Za-z0-9_]{1,250}$/, { message: 'must be a checkout session id (cs_…)' })
  sessionId: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Required with a secret key; with a customer JWT, the token's customer (another id is 403)." })
  @IsOptional()
  @IsUUID('all', UUID_MESSAGE)
  customerId?: string;
}

export class PortalDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Required with a secret key; with a customer JWT, the token's customer (another id is 403)." })
  @IsOptional()
  @IsUUID('all', UUID_MESSAGE)
  customerId?: string;

  @ApiProperty({ example: 'https://news.example/account', description: 'Where the portal sends the customer back to.' })
  @IsUrl(URL_RULE, URL_MESSAGE)
  @MaxLength(2048)
  returnUrl: string;
}

export class AtPeriodEndDto {
  @ApiPropertyOptional({ default: true, description: 'true: it stays active until the period ends; false: cancelled now.' })
  @IsOptional()
  @IsBoolean()
  atPeriodEnd?: boolean;
}

export class CancelSubscriptionDto extends AtPeriodEndDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  subscriptionId: string;

  @ApiPropertyOptional({
    enum: CANCELLATION_REASONS,
    description: "Why the reader cancels; recorded, sent to the processor as its cancellation feedback and in the `subscription.cancelled` data.",
  })
  @IsOmittable()
  @IsIn(CANCELLATION_REASONS, { message: `must be one of ${CANCELLATION_REASONS.join(', ')}` })
  reason?: CancellationReason;
}

export class ProcessorWebhookQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Verify with this publication's webhook secret; without it, with PROCESSOR_WEBHOOK_SECRET." })
  @IsOptional()
  @IsUUID('all', UUID_MESSAGE)
  publication?: string;
}

/* Admin routes (decisions F1, F2, F9, H2). */

export class SubscriptionListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', UUID_MESSAGE)
  customerId?: string;

  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES })
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES)
  status?: SubscriptionStatus;
}

export class CreateProductDto {
  @ApiProperty({ example: 'Digital access', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({ type: [String], description: 'Paywall ids the product unlocks; empty (the default) means every paywall.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true, message: 'each must be a paywall id (UUID)' })
  entitlements?: string[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class UpdateProductDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOmittable()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, description: 'null clears it.' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({ type: [String] })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true, message: 'each must be a paywall id (UUID)' })
  entitlements?: string[];

  @ApiPropertyOptional()
  @IsOmittable()
  @IsBoolean()
  active?: boolean;
}

export class CreatePriceDto {
  @ApiProperty({ example: 'eur', description: 'ISO 4217, stored lower case.' })
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @Matches(/^[a-z]{3}$/, { message: 'must be a three-letter ISO 4217 code' })
  currency: string;

  @ApiProperty({ example: 900, description: 'Minor units (cents).' })
  @IsInt()
  @Min(0)
  @Max(99_999_999)
  unitAmount: number;

  @ApiProperty({
    enum: PRICE_INTERVALS,
    description: '`lifetime`: paid once, never ends; `pass`: paid once, grants for `passHours`; `single_article`: paid once, opens the page the checkout names (`articleUrl`) for good.',
  })
  @IsIn(PRICE_INTERVALS)
  interval: PriceInterval;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PASS_HOURS, example: 24, description: 'Required for a `pass` price (24: a day pass; 168: a week), refused for any other.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_PASS_HOURS)
  passHours?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: 730, description: 'Free days before the first payment (not for one-time prices).' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(730)
  trialDays?: number;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class UpdatePriceDto {
  @ApiProperty({ description: 'Prices are immutable but for this.' })
  @IsBoolean()
  active: boolean;
}

export class ProcessorSettingsDto {
  @ApiProperty({ example: 'sk_live_...', description: 'The processor secret key (or a restricted `rk_` key). Write-only: shown masked.' })
  @IsString()
  @Matches(/^(sk|rk)_[A-Za-z0-9_]{8,250}$/, { message: 'must be a processor secret key (sk_... or rk_...)' })
  secretKey: string;

  @ApiPropertyOptional({ example: 'whsec_...', description: 'The signing secret of a webhook endpoint you made yourself; without it the endpoint is created for you.' })
  @IsOptional()
  @IsString()
  @Matches(/^whsec_[A-Za-z0-9+/=_-]{8,250}$/, { message: 'must be a webhook signing secret (whsec_...)' })
  webhookSecret?: string;
}

export class GrantSubscriptionDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  customerId: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  priceId: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the grant ends; without it, it lasts until cancelled.' })
  @IsOptional()
  @IsTimestamp()
  currentPeriodEnd?: string;
}
