import { Module } from '@nestjs/common';

/** The public routes of the branding feature, behind the gateway's edge guard. */
@Module({ controllers: [] })
export class BrandingRoutesModule {}
