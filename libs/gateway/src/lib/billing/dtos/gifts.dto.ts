import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOmittable, IsTimestamp } from '@gatehouse/platform';
import { GIFT_MONTHS, GIFT_STATUSES, type GiftCheckoutView, type GiftMonths, type GiftRedemption, type GiftStatus, type GiftView, type GiftVoidReason } from '@gatehouse/contracts';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsString, IsUrl, IsUUID, Length, Matches, MaxLength } from 'class-validator';
import { PageOf } from '../../edge/api-views';
import { SubscriptionViewDto } from './billing-views.dto';

/* Gift subscriptions (docs/billing.md#gift-subscriptions). */

const URL_RULE = { require_tld: false, require_protocol: true, protocols: ['http', 'https'], disallow_auth: true };
const URL_MESSAGE = { message: 'must be an absolute http(s) URL without a user name or password' };
const normaliseEmail = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);
const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class PurchaseGiftDto {
  @ApiProperty({ format: 'uuid', description: 'A monthly or yearly price on sale: the gift is `months` of it (a yearly price pro rata), paid once.' })
  @IsUUID('all', { message: 'must be a UUID' })
  priceId: string;

  @ApiProperty({ enum: GIFT_MONTHS, example: 3 })
  @IsIn(GIFT_MONTHS, { message: `must be one of ${GIFT_MONTHS.join(', ')}` })
  months: GiftMonths;

  @ApiProperty({ example: 'friend@example.com', maxLength: 254, description: 'Where the gift is emailed; trimmed and lower-cased.' })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'must be a valid email address' })
  @MaxLength(254)
  recipientEmail: string;

  @ApiProperty({ example: 'Ada', minLength: 1, maxLength: 100 })
  @Transform(trimmed)
  @IsString()
  @Length(1, 100)
  recipientName: string;

  @ApiProperty({ example: 'Grace', minLength: 1, maxLength: 100, description: 'Who the email says the gift is from.' })
  @Transform(trimmed)
  @IsString()
  @Length(1, 100)
  buyerName: string;

  @ApiPropertyOptional({ example: 'grace@example.com', maxLength: 254, description: "The buyer's address for the processor's receipt; required unless a customer JWT is sent." })
  @IsOmittable()
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'must be a valid email address' })
  @MaxLength(254)
  buyerEmail?: string;

  @ApiPropertyOptional({ example: '2026-12-24', description: 'When the recipient is emailed (a date is its start, UTC); now when absent or past.' })
  @IsOmittable()
  @IsTimestamp()
  sendAt?: string;

  @ApiPropertyOptional({ maxLength: 500, description: 'A few words from the buyer, shown in the email as plain text.' })
  @IsOmittable()
  @IsString()
  @MaxLength(500)
  message?: string;

  @ApiProperty({ example: 'https://news.example/gift/thanks', description: "Where the processor sends the buyer once paid: a page of the publication's domains." })
  @IsUrl(URL_RULE, URL_MESSAGE)
  @MaxLength(2048)
  successUrl: string;

  @ApiProperty({ example: 'https://news.example/gift' })
  @IsUrl(URL_RULE, URL_MESSAGE)
  @MaxLength(2048)
  cancelUrl: string;

  @ApiPropertyOptional({
    example: 'https://news.example/account',
    description: "The page with the account element where the recipient redeems: the email's link opens it with the code in its fragment (`#gatehouse-gift=`). On a domain not proven yet, or when absent, `https://<first proven domain>/`.",
  })
  @IsOmittable()
  @IsUrl(URL_RULE, URL_MESSAGE)
  @MaxLength(2000)
  redeemUrl?: string;
}

export class RedeemGiftDto {
  @ApiProperty({ example: 'q3N0c2VjcmV0Y29kZWdpZnQx', description: "The code from the gift email's link." })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{16,64}$/, { message: 'must be a gift code' })
  code: string;
}

export class GiftCheckoutDto implements GiftCheckoutView {
  @ApiProperty({ format: 'uuid' }) giftId: string;
  @ApiProperty({ description: "The processor's checkout page: send the buyer there." }) url: string;
  @ApiProperty() sessionId: string;
  @ApiProperty({ description: 'What the buyer pays, minor units.' }) amount: number;
  @ApiProperty({ example: 'eur' }) currency: string;
}

export class GiftRedemptionDto implements GiftRedemption {
  @ApiProperty({ format: 'uuid' }) giftId: string;
  @ApiProperty() productName: string;
  @ApiProperty({ enum: GIFT_MONTHS }) months: GiftMonths;
  @ApiProperty({ type: SubscriptionViewDto, description: '`source: gift`, ending at `currentPeriodEnd` without renewal (`cancelAtPeriodEnd: true`).' }) subscription: SubscriptionViewDto;
}

export class GiftViewDto implements GiftView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: GIFT_STATUSES, description: '`pending`: not paid yet; `purchased`: paid, emailed on `sendAt`; `redeemed`; `voided`: refunded or cancelled, its code refused.' })
  status: GiftStatus;
  @ApiProperty({ format: 'uuid' }) priceId: string;
  @ApiProperty({ format: 'uuid' }) productId: string;
  @ApiProperty() productName: string;
  @ApiProperty({ enum: GIFT_MONTHS }) months: GiftMonths;
  @ApiProperty({ description: 'Paid, minor units of `currency`.' }) amount: number;
  @ApiProperty() currency: string;
  @ApiProperty() buyerEmail: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) buyerCustomerId: string | null;
  @ApiProperty() recipientEmail: string;
  @ApiProperty() recipientName: string;
  @ApiProperty({ format: 'date-time' }) sendAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) emailedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) purchasedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) redeemedAt: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) redeemedBy: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) subscriptionId: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) voidedAt: string | null;
  @ApiProperty({ type: String, enum: ['refunded', 'cancelled'], nullable: true }) voidReason: GiftVoidReason | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export const GiftPageDto = PageOf(GiftViewDto, 'GiftPageDto');
