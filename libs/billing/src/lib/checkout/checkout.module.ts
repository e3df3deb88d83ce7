import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { OffersModule } from '../offers/offers.module';
import { ProcessorModule } from '../processor/processor.module';
import { CheckoutHandler } from './checkout.handler';
import { CheckoutService } from './checkout.service';

@Module({ imports: [ProcessorModule, CatalogModule, OffersModule], controllers: [CheckoutHandler], providers: [CheckoutService] })
export class CheckoutModule {}
