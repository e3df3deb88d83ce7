import { Module } from '@nestjs/common';
import { AccountEmailModule } from '../account-email/account-email.module';
import { CustomersModule } from '../customers/customers.module';
import { PersonalDataModule } from '../personal-data/personal-data.module';
import { SessionsModule } from '../sessions/sessions.module';
import { CustomerRecordsHandler } from './customer-records.handler';
import { CustomerRecordsService } from './customer-records.service';

@Module({ imports: [CustomersModule, SessionsModule, AccountEmailModule, PersonalDataModule], controllers: [CustomerRecordsHandler], providers: [CustomerRecordsService] })
export class CustomerRecordsModule {}
