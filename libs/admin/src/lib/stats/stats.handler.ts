import { Controller } from '@nestjs/common';
import { StatsRequests, type OrganisationStats, type OrganisationStatsRequest, type Stats, type StatsRequest } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { StatsService } from './stats.service';

@Controller()
export class StatsHandler {
  constructor(private readonly stats: StatsService) {}

  @Handles(StatsRequests.GetStats)
  get(request: StatsRequest): Promise<Stats> {
    return this.stats.stats(request);
  }

  @Handles(StatsRequests.GetOrganisationStats)
  organisation(request: OrganisationStatsRequest): Promise<OrganisationStats> {
    return this.stats.organisation(request);
  }
}
