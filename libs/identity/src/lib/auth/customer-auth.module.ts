import { Module } from '@nestjs/common';
import { AccountEmailModule } from '../account-email/account-email.module';
import { CustomersModule } from '../customers/customers.module';
import { LoginModule } from '../login/login.module';
import { SessionsModule } from '../sessions/sessions.module';
import { CustomerAuthHandler } from './customer-auth.handler';

@Module({ imports: [CustomersModule, LoginModule, SessionsModule, AccountEmailModule], controllers: [CustomerAuthHandler] })
export class CustomerAuthModule {}
