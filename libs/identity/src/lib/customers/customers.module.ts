import { Module } from '@nestjs/common';
import { CustomersHandler } from './customers.handler';
import { CustomersService } from './customers.service';
import { PasswordHasher } from './password-hasher.service';

@Module({ controllers: [CustomersHandler], providers: [CustomersService, PasswordHasher], exports: [CustomersService, PasswordHasher] })
export class CustomersModule {}
