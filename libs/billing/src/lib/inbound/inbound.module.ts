import { Module } from '@nestjs/common';
import { PassesModule } from '../passes/passes.module';
import { GiftsModule } from '../gifts/gifts.module';
import { OrganisationsModule } from '../organisations/organisations.module';
import { ProcessorModule } from '../processor/processor.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { ChargeEventHandler } from './charge-events.service';
import { CheckoutConfirmationService } from './checkout-confirmation.service';
import { CheckoutEventHandler } from './checkout-events.service';
import { CustomerEventHandler } from './customer-events.service';
import { FreshSubscriptions } from './fresh-subscriptions.service';
import { InboundHandler } from './inbound.handler';
import { InvoiceEventHandler } from './invoice-events.service';
import { PaymentNotices } from './payment-notices.service';
import { ProcessorEventProcessor } from './processor-event-processor.service';
import { ProcessorEventQueue } from './processor-event-queue.service';
import { ProcessorEventReceiver } from './processor-event-receiver.service';
import { PublicationResolver } from './publication-resolver.service';
import { SubscriptionEventHandler } from './subscription-events.service';
import { WebhookVerifier } from './webhook-verifier.service';

@Module({
  imports: [ProcessorModule, SubscriptionsModule, PassesModule, GiftsModule, OrganisationsModule],
  controllers: [InboundHandler],
  providers: [
    WebhookVerifier,
    ProcessorEventReceiver,
    ProcessorEventProcessor,
    ProcessorEventQueue,
    PublicationResolver,
    FreshSubscriptions,
    SubscriptionEventHandler,
    CheckoutEventHandler,
    CheckoutConfirmationService,
    InvoiceEventHandler,
    CustomerEventHandler,
    ChargeEventHandler,
    PaymentNotices,
  ],
})
export class InboundModule {}
