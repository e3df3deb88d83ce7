import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { ProcessorModule } from '../processor/processor.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { GiftMail } from './gift-mail.service';
import { GiftPayments } from './gift-payments.service';
import { GiftsHandler } from './gifts.handler';
import { GiftsService } from './gifts.service';

@Module({
  imports: [ProcessorModule, CatalogModule, SubscriptionsModule],
  controllers: [GiftsHandler],
  providers: [GiftsService, GiftPayments, GiftMail],
  exports: [GiftPayments],
})
export class GiftsModule {}
