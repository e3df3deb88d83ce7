import { Module } from '@nestjs/common';
import { PaywallsModule } from '../paywalls/paywalls.module';
import { ExperimentsHandler } from './experiments.handler';
import { ExperimentsService } from './experiments.service';

@Module({ imports: [PaywallsModule], controllers: [ExperimentsHandler], providers: [ExperimentsService] })
export class ExperimentsModule {}
