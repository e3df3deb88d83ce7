import { Controller } from '@nestjs/common';
import { BrandingRequests, type BrandingConfiguration, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { BrandingConfigurationsService } from './branding-configurations.service';

@Controller()
export class BrandingConfigurationsHandler {
  constructor(private readonly configurations: BrandingConfigurationsService) {}

  @Handles(BrandingRequests.Get)
  get({ publicationId }: RequestOf<typeof BrandingRequests.Get>): Promise<BrandingConfiguration> {
    return this.configurations.get(publicationId);
  }

  @Handles(BrandingRequests.Update)
  update({ publicationId, changes }: RequestOf<typeof BrandingRequests.Update>): Promise<BrandingConfiguration> {
    return this.configurations.update(publicationId, changes);
  }
}
