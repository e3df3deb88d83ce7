import { Module } from '@nestjs/common';
import { CatalogModule } from '../decisions/catalog.module';
import { SegmentsModule } from '../segments/segments.module';
import { PaywallsHandler } from './paywalls.handler';
import { PaywallsService } from './paywalls.service';

@Module({ imports: [SegmentsModule, CatalogModule], controllers: [PaywallsHandler], providers: [PaywallsService], exports: [PaywallsService] })
export class PaywallsModule {}
