import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/platform';
import { BrandingConfig } from './branding.config';
import { BrandingConfigurationRow } from './configuration/branding-configuration.entity';
import { BrandingConfigurationsModule } from './configuration/branding-configurations.module';
import { CreateBrandingConfigurations1763750239765 } from './migrations/1763750239765-create-branding-configurations';
import { BrandingRevision1764100000000 } from './migrations/1764100000000-branding-revision';
import { BrandingWallCopy1764200000000 } from './migrations/1764200000000-branding-wall-copy';

export { BrandingConfig };

@Module({ imports: [BrandingConfigurationsModule] })
export class BrandingModule {}

/** Branding configuration per publication. */
export const brandingService: ServiceDefinition<BrandingConfig> = {
  name: 'branding',
  schema: 'branding',
  module: BrandingModule,
  config: BrandingConfig,
  entities: [BrandingConfigurationRow],
  migrations: [CreateBrandingConfigurations1763750239765, BrandingRevision1764100000000, BrandingWallCopy1764200000000],
};
