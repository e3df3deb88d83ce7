import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/platform';
import { BillingConfig } from './billing.config';
import { CancellationAnswer } from './cancellation/cancellation-answer.entity';
import { CancellationReasonRow } from './cancellation/cancellation-reason.entity';
import { CancellationModule } from './cancellation/cancellation.module';
import { WinBackNotice } from './cancellation/win-back-notice.entity';
import { WinBackSettings } from './cancellation/win-back-settings.entity';
import { CatalogModule } from './catalog/catalog.module';
import { Price } from './catalog/price.entity';
import { Product } from './catalog/product.entity';
import { CheckoutSession } from './checkout/checkout-session.entity';
import { CheckoutModule } from './checkout/checkout.module';
import { Gift } from './gifts/gift.entity';
import { GiftsModule } from './gifts/gifts.module';
import { SubscriptionImportModule } from './imports/subscription-import.module';
import { InboundModule } from './inbound/inbound.module';
import { ProcessorEventRecord } from './inbound/processor-event.entity';
import { CreateBillingTables1763768421337 } from './migrations/1763768421337-create-billing-tables';
import { CreateOffers1795730000000 } from './migrations/1795730000000-create-offers';
import { PaymentNotice } from './inbound/payment-notice.entity';
import { AddPaymentRecovery1795800000000 } from './migrations/1795800000000-add-payment-recovery';
import { AddSaveOffersAndWinBack1796100000000 } from './migrations/1796100000000-add-save-offers-and-win-back';
import { CreateGifts1796000000000 } from './migrations/1796000000000-create-gifts';
import { Offer } from './offers/offer.entity';
import { OffersModule } from './offers/offers.module';
import { CreatePurchases1795900000000 } from './migrations/1795900000000-create-purchases';
import { PassesModule } from './passes/passes.module';
import { Purchase } from './passes/purchase.entity';
import { CreateOrganisations1796400000000 } from './migrations/1796400000000-create-organisations';
import { RecordUnqueuedWinBack1796800000000 } from './migrations/1796800000000-record-unqueued-win-back';
import { OrganisationInvitation } from './organisations/organisation-invitation.entity';
import { OrganisationMember } from './organisations/organisation-member.entity';
import { Organisation } from './organisations/organisation.entity';
import { OrganisationsModule } from './organisations/organisations.module';
import { RecordCancellationReasons1764300000000 } from './migrations/1764300000000-record-cancellation-reasons';
import { AddPlanChangesAndPauses1764400000000 } from './migrations/1764400000000-add-plan-changes-and-pauses';
import { CreateErasedProcessorCustomers1764500000000 } from './migrations/1764500000000-create-erased-processor-customers';
import { ProcessorCustomer } from './processor/processor-customer.entity';
import { ProcessorSettings } from './processor/processor-settings.entity';
import { PersonalDataModule } from './personal-data/personal-data.module';
import { ProcessorModule } from './processor/processor.module';
import { BillingRetention } from './retention/billing-retention.service';
import { StatsModule } from './stats/stats.module';
import { SubscriptionSettings } from './subscriptions/subscription-settings.entity';
import { Subscription } from './subscriptions/subscription.entity';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';

@Module({ imports: [ProcessorModule, CatalogModule, SubscriptionsModule, CheckoutModule, InboundModule, StatsModule, OffersModule, GiftsModule, OrganisationsModule, PersonalDataModule, CancellationModule, PassesModule, SubscriptionImportModule], providers: [BillingRetention] })
export class BillingModule {}

/** Products, prices, subscriptions, organisations, processor settings and processed processor events. */
export const billingService: ServiceDefinition<BillingConfig> = {
  name: 'billing',
  schema: 'billing',
  module: BillingModule,
  config: BillingConfig,
  entities: [Product, Price, ProcessorSettings, ProcessorCustomer, Subscription, SubscriptionSettings, CheckoutSession, ProcessorEventRecord, Offer, PaymentNotice, CancellationReasonRow, CancellationAnswer, WinBackSettings, WinBackNotice, Purchase, Gift, Organisation, OrganisationMember, OrganisationInvitation],
  migrations: [CreateBillingTables1763768421337, RecordCancellationReasons1764300000000, AddPlanChangesAndPauses1764400000000, CreateErasedProcessorCustomers1764500000000, CreateOffers1795730000000, AddPaymentRecovery1795800000000, CreatePurchases1795900000000, CreateGifts1796000000000, AddSaveOffersAndWinBack1796100000000, CreateOrganisations1796400000000, RecordUnqueuedWinBack1796800000000],
};

export { BillingConfig, BillingRetention };
