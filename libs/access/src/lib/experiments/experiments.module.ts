import { Module } from '@nestjs/common';
import { CatalogModule } from '../decisions/catalog.module';
import { PaywallsModule } from '../paywalls/paywalls.module';
import { ExperimentsHandler } from './experiments.handler';
import { ExperimentsService } from './experiments.service';

@Module({ imports: [PaywallsModule, CatalogModule], controllers: [ExperimentsHandler], providers: [ExperimentsService] })
export class ExperimentsModule {}
