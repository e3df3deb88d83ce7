import { Module } from '@nestjs/common';
import { RulesWrites } from '../shared/rules-writes.service';
import { SegmentsModule } from '../segments/segments.module';
import { PaywallsHandler } from './paywalls.handler';
import { PaywallsService } from './paywalls.service';

@Module({ imports: [SegmentsModule], controllers: [PaywallsHandler], providers: [PaywallsService, RulesWrites], exports: [PaywallsService] })
export class PaywallsModule {}
