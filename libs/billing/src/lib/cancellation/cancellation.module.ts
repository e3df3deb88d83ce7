import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { OffersModule } from '../offers/offers.module';
import { ProcessorModule } from '../processor/processor.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { CancellationSaves } from './cancellation-saves.service';
import { CancellationHandler } from './cancellation.handler';
import { WinBackService } from './win-back.service';

@Module({
  imports: [ProcessorModule, CatalogModule, SubscriptionsModule, OffersModule],
  controllers: [CancellationHandler],
  providers: [CancellationSaves, WinBackService],
})
export class CancellationModule {}
