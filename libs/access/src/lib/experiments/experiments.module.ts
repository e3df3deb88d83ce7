import { Module } from '@nestjs/common';
import { RulesWrites } from '../shared/rules-writes.service';
import { PaywallsModule } from '../paywalls/paywalls.module';
import { ExperimentsHandler } from './experiments.handler';
import { ExperimentsService } from './experiments.service';

@Module({ imports: [PaywallsModule], controllers: [ExperimentsHandler], providers: [ExperimentsService, RulesWrites] })
export class ExperimentsModule {}
