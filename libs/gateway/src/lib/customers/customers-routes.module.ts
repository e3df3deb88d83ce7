import { Module } from '@nestjs/common';
import { CustomersController } from './customers.controller';

/** The public routes of the customers feature, behind the gateway's edge guard. */
@Module({ controllers: [CustomersController] })
export class CustomersRoutesModule {}
