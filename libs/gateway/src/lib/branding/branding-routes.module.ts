import { Module } from '@nestjs/common';
import { BrandingController } from './branding.controller';

/** The public routes of the branding feature, behind the gateway's edge guard. */
@Module({ controllers: [BrandingController] })
export class BrandingRoutesModule {}
