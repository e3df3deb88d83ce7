import { Module } from '@nestjs/common';
import { CustomersController } from './customers.controller';
import { DeletedCustomers } from './deleted-customers';

/** The public routes of the customers feature, behind the gateway's edge guard; exports the deleted-customer set the edge checks. */
@Module({ controllers: [CustomersController], providers: [DeletedCustomers], exports: [DeletedCustomers] })
export class CustomersRoutesModule {}
