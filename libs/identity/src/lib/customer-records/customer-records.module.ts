import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { SessionsModule } from '../sessions/sessions.module';
import { CustomerRecordsHandler } from './customer-records.handler';
import { CustomerRecordsService } from './customer-records.service';

@Module({ imports: [CustomersModule, SessionsModule], controllers: [CustomerRecordsHandler], providers: [CustomerRecordsService] })
export class CustomerRecordsModule {}
