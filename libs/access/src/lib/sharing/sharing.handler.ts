import { Controller } from '@nestjs/common';
import { AccessRequests, type RequestOf, type ShareLink, type ShareSettings } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { ShareLinksService } from './share-links.service';
import { ShareSettingsService } from './share-settings.service';

const { CreateShareLink, GetShareSettings, UpdateShareSettings } = AccessRequests;

@Controller()
export class SharingHandler {
  constructor(
    private readonly links: ShareLinksService,
    private readonly settings: ShareSettingsService,
  ) {}

  @Handles(CreateShareLink)
  create(request: RequestOf<typeof CreateShareLink>): Promise<ShareLink> {
    return this.links.create(request);
  }

  @Handles(GetShareSettings)
  get({ publicationId }: RequestOf<typeof GetShareSettings>): Promise<ShareSettings> {
    return this.settings.get(publicationId);
  }

  @Handles(UpdateShareSettings)
  update({ publicationId, changes }: RequestOf<typeof UpdateShareSettings>): Promise<ShareSettings> {
    return this.settings.update(publicationId, changes ?? {});
  }
}
