import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { LoginThrottle } from './login-throttle.service';
import { LoginService } from './login.service';

@Module({ imports: [CustomersModule], providers: [LoginService, LoginThrottle], exports: [LoginService] })
export class LoginModule {}
