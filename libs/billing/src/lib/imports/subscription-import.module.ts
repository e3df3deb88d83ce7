import { Module } from '@nestjs/common';
import { ProcessorModule } from '../processor/processor.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { SubscriptionImportHandler } from './subscription-import.handler';
import { SubscriptionImportService } from './subscription-import.service';

@Module({ imports: [ProcessorModule, SubscriptionsModule], controllers: [SubscriptionImportHandler], providers: [SubscriptionImportService] })
export class SubscriptionImportModule {}
