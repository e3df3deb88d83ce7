import { Module } from '@nestjs/common';
import { ProcessorModule } from '../processor/processor.module';
import { EntitlementsAnnouncer } from '../subscriptions/entitlements-announcer.service';
import { CatalogHandler } from './catalog.handler';
import { PricesService } from './prices.service';
import { ProcessorCatalog } from './processor-catalog.service';
import { ProductsService } from './products.service';

@Module({
  imports: [ProcessorModule],
  controllers: [CatalogHandler],
  providers: [ProductsService, PricesService, ProcessorCatalog, EntitlementsAnnouncer],
  exports: [ProductsService, PricesService],
})
export class CatalogModule {}
