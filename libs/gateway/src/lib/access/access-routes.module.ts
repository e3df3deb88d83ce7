import { Module } from '@nestjs/common';

/** The public routes of the access feature, behind the gateway's edge guard. */
@Module({ controllers: [] })
export class AccessRoutesModule {}
