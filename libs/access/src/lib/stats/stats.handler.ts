import { Controller } from '@nestjs/common';
import { AccessRequests, type AccessStats, type OrganisationReads, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { AccessStatsService } from './access-stats.service';
import { OrganisationReadsService } from './organisation-reads.service';

@Controller()
export class StatsHandler {
  constructor(
    private readonly stats: AccessStatsService,
    private readonly organisationReads: OrganisationReadsService,
  ) {}

  @Handles(AccessRequests.GetStats)
  get(request: RequestOf<typeof AccessRequests.GetStats>): Promise<AccessStats> {
    return this.stats.stats(request);
  }

  @Handles(AccessRequests.GetOrganisationReads)
  organisation({ publicationId, ...request }: RequestOf<typeof AccessRequests.GetOrganisationReads>): Promise<OrganisationReads> {
    return this.organisationReads.readsOf(publicationId, request);
  }
}
