import { Module } from '@nestjs/common';

/** The public routes of the customers feature, behind the gateway's edge guard. */
@Module({ controllers: [] })
export class CustomersRoutesModule {}
