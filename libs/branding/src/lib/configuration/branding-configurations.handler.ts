import { Controller } from '@nestjs/common';
import { BrandingRequests, type BrandingRevision, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { BrandingConfigurationsService } from './branding-configurations.service';

@Controller()
export class BrandingConfigurationsHandler {
  constructor(private readonly configurations: BrandingConfigurationsService) {}

  @Handles(BrandingRequests.Get)
  get({ publicationId }: RequestOf<typeof BrandingRequests.Get>): Promise<BrandingRevision> {
    return this.configurations.get(publicationId);
  }

  @Handles(BrandingRequests.Update)
  update({ publicationId, changes, ifRevisions }: RequestOf<typeof BrandingRequests.Update>): Promise<BrandingRevision> {
    return this.configurations.update(publicationId, changes, ifRevisions);
  }
}
