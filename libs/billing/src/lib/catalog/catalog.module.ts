import { Module } from '@nestjs/common';
import { ProcessorModule } from '../processor/processor.module';
import { EntitlementsAnnouncer } from '../subscriptions/entitlements-announcer';
import { CatalogHandler } from './catalog.handler';
import { PricesService } from './prices.service';
import { ProcessorCatalog } from './processor-catalog';
import { ProductsService } from './products.service';

@Module({
  imports: [ProcessorModule],
  controllers: [CatalogHandler],
  providers: [ProductsService, PricesService, ProcessorCatalog, EntitlementsAnnouncer],
  exports: [ProductsService, PricesService],
})
export class CatalogModule {}
