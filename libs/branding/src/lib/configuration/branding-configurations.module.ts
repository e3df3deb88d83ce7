import { Module } from '@nestjs/common';
import { BrandingConfigurationsHandler } from './branding-configurations.handler';
import { BrandingConfigurationsService } from './branding-configurations.service';

@Module({ controllers: [BrandingConfigurationsHandler], providers: [BrandingConfigurationsService] })
export class BrandingConfigurationsModule {}
