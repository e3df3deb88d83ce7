import { Module } from '@nestjs/common';
import { SegmentsModule } from '../segments/segments.module';
import { PaywallsHandler } from './paywalls.handler';
import { PaywallsService } from './paywalls.service';

@Module({ imports: [SegmentsModule], controllers: [PaywallsHandler], providers: [PaywallsService], exports: [PaywallsService] })
export class PaywallsModule {}
