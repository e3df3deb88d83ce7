import { Module } from '@nestjs/common';
import { ProcessorModule } from '../processor/processor.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { CheckoutConfirmationService } from './checkout-confirmation';
import { CheckoutEventHandler } from './checkout-events';
import { CustomerEventHandler } from './customer-events';
import { FreshSubscriptions } from './fresh-subscriptions';
import { InboundHandler } from './inbound.handler';
import { InvoiceEventHandler } from './invoice-events';
import { ProcessorEventProcessor } from './processor-event-processor';
import { ProcessorEventQueue } from './processor-event-queue';
import { ProcessorEventReceiver } from './processor-event-receiver';
import { PublicationResolver } from './publication-resolver';
import { SubscriptionEventHandler } from './subscription-events';
import { WebhookVerifier } from './webhook-verifier';

@Module({
  imports: [ProcessorModule, SubscriptionsModule],
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
  ],
})
export class InboundModule {}
