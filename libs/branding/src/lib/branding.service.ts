import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/bus';
import { ServiceConfig } from '@gatehouse/platform';

export class BrandingConfig extends ServiceConfig {}

@Module({})
export class BrandingModule {}

/** Branding configuration per publication. */
export const brandingService: ServiceDefinition<BrandingConfig> = {
  name: 'branding',
  schema: 'branding',
  module: BrandingModule,
  config: BrandingConfig,
  entities: [],
  migrations: [],
};
