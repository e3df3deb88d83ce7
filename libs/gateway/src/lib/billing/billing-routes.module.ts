import { Module } from '@nestjs/common';
import { SegmentReaders } from '../access/segment-readers.service';
import { AdminPricesController, AdminProductsController } from './admin-catalog.controller';
import { AdminProcessorController } from './admin-processor.controller';
import { AdminPurchasesController } from './admin-purchases.controller';
import { AdminSubscriptionsController } from './admin-subscriptions.controller';
import { AdminCancellationController, CancellationController } from './cancellation.controller';
import { AdminGiftsController, GiftsController } from './gifts.controller';
import { AdminOffersController, OffersController } from './offers.controller';
import { AdminOrganisationsController, OrganisationsController } from './organisations.controller';
import { PricesController } from './prices.controller';
import { ProcessorWebhookController } from './processor-webhook.controller';
import { SubscriptionsController } from './subscriptions.controller';
import { AdminSubscriptionSettingsController, SubscriptionChangesController } from './subscription-changes.controller';

/** The public routes of the billing feature, behind the gateway's edge guard. */
@Module({
  controllers: [
    SubscriptionsController,
    SubscriptionChangesController,
    CancellationController,
    AdminCancellationController,
    AdminSubscriptionSettingsController,
    PricesController,
    ProcessorWebhookController,
    AdminProductsController,
    AdminPricesController,
    AdminProcessorController,
    AdminSubscriptionsController,
    AdminPurchasesController,
    AdminOffersController,
    OffersController,
    GiftsController,
    AdminGiftsController,
    AdminOrganisationsController,
    OrganisationsController,
  ],
  providers: [SegmentReaders],
})
export class BillingRoutesModule {}
