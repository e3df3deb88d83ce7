import { Module } from '@nestjs/common';
import { AccountEmailModule } from '../account-email/account-email.module';
import { CustomersModule } from '../customers/customers.module';
import { CustomerImportHandler } from './customer-import.handler';
import { CustomerImportService } from './customer-import.service';

@Module({ imports: [CustomersModule, AccountEmailModule], controllers: [CustomerImportHandler], providers: [CustomerImportService] })
export class CustomerImportModule {}
