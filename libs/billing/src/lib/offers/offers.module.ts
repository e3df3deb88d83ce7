import { Module } from '@nestjs/common';
import { ProcessorModule } from '../processor/processor.module';
import { OffersHandler } from './offers.handler';
import { OffersService } from './offers.service';
import { ProcessorOffers } from './processor-offers.service';

@Module({ imports: [ProcessorModule], controllers: [OffersHandler], providers: [OffersService, ProcessorOffers], exports: [OffersService] })
export class OffersModule {}
