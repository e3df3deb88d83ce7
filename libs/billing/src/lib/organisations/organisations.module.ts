import { Module } from '@nestjs/common';
import { ProcessorModule } from '../processor/processor.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { OrganisationDomains } from './organisation-domains.service';
import { OrganisationSeats } from './organisation-seats.service';
import { OrganisationsHandler } from './organisations.handler';
import { OrganisationsService } from './organisations.service';

@Module({ imports: [ProcessorModule, SubscriptionsModule], controllers: [OrganisationsHandler], providers: [OrganisationsService, OrganisationSeats, OrganisationDomains], exports: [OrganisationsService] })
export class OrganisationsModule {}
