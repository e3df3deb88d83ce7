import { Module } from '@nestjs/common';
import { ProcessorModule } from '../processor/processor.module';
import { BillingPersonalDataHandler } from './billing-personal-data.handler';
import { BillingPersonalDataService } from './billing-personal-data.service';

@Module({ imports: [ProcessorModule], controllers: [BillingPersonalDataHandler], providers: [BillingPersonalDataService] })
export class PersonalDataModule {}
