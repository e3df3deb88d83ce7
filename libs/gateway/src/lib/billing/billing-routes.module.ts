import { Module } from '@nestjs/common';

/** The public routes of the billing feature, behind the gateway's edge guard. */
@Module({ controllers: [] })
export class BillingRoutesModule {}
