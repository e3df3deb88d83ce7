import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CHECKOUT_STATES,
  NEVER_ENDS,
  PRICE_INTERVALS,
  PURCHASE_KINDS,
  type CustomerPurchaseView,
  type PurchaseKind,
  type PurchaseView,
  SUBSCRIPTION_SOURCES,
  SUBSCRIPTION_STATUSES,
  type CheckoutConfirmation,
  type CheckoutSessionView,
  type CheckoutState,
  type OfferedPriceView,
  type PriceInterval,
  type PriceView,
  type ProcessorSettingsView,
  type ProductView,
  type SubscriptionSource,
  type SubscriptionStatus,
  type SubscriptionView,
  CANCELLATION_REASONS,
  type CancellationReason,
  type ScheduledPlanChange,
} from '@gatehouse/contracts';
import { PageOf } from '../../edge/api-views';

/* What the billing routes answer (spec 2.5, 2.6; decisions F1-F9). */

class RedeemedOfferDto {
  @ApiProperty({ format: 'uuid' }) offerId: string;
  @ApiProperty({ example: 'SPRING3' }) code: string;
}

export class ScheduledPlanChangeDto implements ScheduledPlanChange {
  @ApiProperty({ format: 'uuid' }) priceId: string;
  @ApiProperty({ format: 'date-time', description: 'The current period end, when the new price applies.' }) effectiveAt: string;
}

export class SubscriptionViewDto implements SubscriptionView {
  @ApiProperty({ format: 'uuid' }) subscriptionId: string;
  @ApiProperty({ format: 'uuid' }) customerId: string;
  @ApiProperty({ format: 'uuid' }) priceId: string;
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES, example: 'active' }) status: SubscriptionStatus;
  @ApiProperty({ format: 'date-time' }) currentPeriodStart: string;
  @ApiProperty({ format: 'date-time', description: `${NEVER_ENDS}: never ends (a lifetime price, or a manual grant without an end).` })
  currentPeriodEnd: string;
  @ApiProperty({ enum: SUBSCRIPTION_SOURCES, description: '`processor`: through a checkout; `manual`: granted by staff; `gift`: redeemed from a gift, ending at its fixed end without renewal.' })
  source: SubscriptionSource;
  @ApiProperty({ description: 'Cancelled at the end of the current period: it stays active until then.' }) cancelAtPeriodEnd: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) trialStart: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) trialEnd: string | null;
  @ApiProperty({ type: String, enum: CANCELLATION_REASONS, nullable: true, description: "Why the reader cancelled, as they picked it (here or in the processor's portal); null when nobody said." })
  cancellationReason: CancellationReason | null;
  @ApiPropertyOptional({ type: RedeemedOfferDto, description: "Present when it was started with an offer's code." }) offer?: RedeemedOfferDto;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'While collection is paused: when it resumes; null when not paused.' })
  pausedUntil: string | null;
  @ApiProperty({ type: () => ScheduledPlanChangeDto, nullable: true, description: 'A plan change waiting for the period end; null when none.' })
  scheduledChange: ScheduledPlanChangeDto | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export const SubscriptionPageDto = PageOf(SubscriptionViewDto, 'SubscriptionPageDto');

export class CustomerSubscriptionsDto {
  @ApiProperty({ type: [SubscriptionViewDto], description: 'Newest first, cancelled ones included.' }) subscriptions: SubscriptionViewDto[];
}

export class CheckoutSessionDto implements CheckoutSessionView {
  @ApiProperty({ example: 'https://checkout.stripe.com/c/pay/cs_test_a1', description: 'Redirect the customer here.' }) url: string;
  @ApiProperty({ example: 'cs_test_a1', description: "The processor's checkout session id." }) sessionId: string;
}

export class PurchaseViewDto implements PurchaseView {
  @ApiProperty({ format: 'uuid' }) purchaseId: string;
  @ApiProperty({ format: 'uuid' }) customerId: string;
  @ApiProperty({ format: 'uuid' }) priceId: string;
  @ApiProperty({ enum: PURCHASE_KINDS, description: '`pass`: every page its product unlocks until `endsAt`; `single_article`: the page `url`, for good.' }) kind: PurchaseKind;
  @ApiProperty({ type: String, nullable: true, description: 'A single article: the page bought.' }) url: string | null;
  @ApiProperty({ format: 'date-time', description: 'When it was paid.' }) startsAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'A pass: when it stops granting; null for a single article.' }) endsAt: string | null;
}

export class CustomerPurchaseViewDto extends PurchaseViewDto implements CustomerPurchaseView {
  @ApiProperty({ example: 'Digital Gazette', description: 'The name of the product the pass or article is of.' }) productName: string;
}

export class CustomerPurchasesDto {
  @ApiProperty({ type: [CustomerPurchaseViewDto], description: 'Newest first, ended passes included.' }) purchases: CustomerPurchaseViewDto[];
}

export class CheckoutConfirmationDto implements CheckoutConfirmation {
  @ApiProperty({ example: 'cs_test_a1' }) sessionId: string;
  @ApiProperty({
    enum: CHECKOUT_STATES,
    description:
      '`complete`: paid (or nothing to pay, a trial), the subscription recorded; `processing`: finished, the payment not cleared yet (the processor’s events bring the subscription); `open`: not paid; `expired`: abandoned.',
  })
  status: CheckoutState;
  @ApiProperty({ type: SubscriptionViewDto, nullable: true, description: 'The subscription the checkout bought, once `complete`; null for a pass or a single article.' }) subscription: SubscriptionViewDto | null;
  @ApiProperty({ type: PurchaseViewDto, nullable: true, description: 'The pass or single article the checkout bought, once `complete`.' }) purchase: PurchaseViewDto | null;
}

export class PortalSessionDto {
  @ApiProperty({ example: 'https://billing.stripe.com/p/session/test_a1', description: 'Redirect the customer here.' }) url: string;
}

export class ProcessorWebhookReceivedDto {
  @ApiProperty({ enum: [true] }) received: true;
}

export class ProductViewDto implements ProductView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Digital access' }) name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: [String], description: 'Paywall ids the product unlocks; empty means every paywall.', example: [] }) entitlements: string[];
  @ApiProperty() active: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export const ProductPageDto = PageOf(ProductViewDto, 'ProductPageDto');

export class PriceViewDto implements PriceView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) productId: string;
  @ApiProperty({ example: 'eur', description: 'ISO 4217, lower case.' }) currency: string;
  @ApiProperty({ example: 900, description: 'Minor units (cents).' }) unitAmount: number;
  @ApiProperty({ enum: PRICE_INTERVALS }) interval: PriceInterval;
  @ApiProperty({ example: 0 }) trialDays: number;
  @ApiProperty({ type: Number, nullable: true, example: null, description: 'A `pass` price: the hours it grants; null otherwise.' }) passHours: number | null;
  @ApiProperty() active: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export const PricePageDto = PageOf(PriceViewDto, 'PricePageDto');

export class OfferedPriceViewDto implements OfferedPriceView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) productId: string;
  @ApiProperty({ example: 'Digital subscription' }) productName: string;
  @ApiProperty({ example: 'eur', description: 'ISO 4217, lower case.' }) currency: string;
  @ApiProperty({ example: 900, description: 'Minor units (cents).' }) unitAmount: number;
  @ApiProperty({ enum: PRICE_INTERVALS }) interval: PriceInterval;
  @ApiProperty({ example: 0 }) trialDays: number;
  @ApiProperty({ type: Number, nullable: true, example: null, description: 'A `pass` price: the hours it grants; null otherwise.' }) passHours: number | null;
}

export class PriceOfferDto {
  @ApiProperty({ type: [OfferedPriceViewDto], description: 'Cheapest first.' }) prices: OfferedPriceViewDto[];
}

export class ProcessorSettingsViewDto implements ProcessorSettingsView {
  @ApiProperty() configured: boolean;
  @ApiProperty({ type: String, nullable: true, example: 'sk_...1234', description: 'Masked.' }) secretKey: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'whsec_...abcd', description: 'Masked.' }) webhookSecret: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The processor's id of the endpoint this service created; null when the secret was supplied." })
  webhookEndpointId: string | null;
  @ApiProperty({ example: 'https://gatehouse.example/api/v1/webhooks/processor?publication=0b6f…' }) webhookUrl: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updatedAt: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Under `npm start` with the local fake processor standing in: a key it accepts, which the dashboard offers; null in any real deployment.',
  })
  localTestKey: string | null;
}
