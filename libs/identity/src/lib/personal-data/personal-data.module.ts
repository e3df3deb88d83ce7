import { Module } from '@nestjs/common';
import { AccountEmailModule } from '../account-email/account-email.module';
import { CustomersModule } from '../customers/customers.module';
import { LoginModule } from '../login/login.module';
import { SessionsModule } from '../sessions/sessions.module';
import { ErasureRunner } from './erasure-runner.service';
import { ErasuresService } from './erasures.service';
import { PersonalDataExportService } from './personal-data-export.service';
import { PersonalDataHandler } from './personal-data.handler';

@Module({
  imports: [CustomersModule, LoginModule, SessionsModule, AccountEmailModule],
  controllers: [PersonalDataHandler],
  providers: [ErasuresService, ErasureRunner, PersonalDataExportService],
  exports: [ErasuresService],
})
export class PersonalDataModule {}
