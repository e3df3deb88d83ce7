import { Controller } from '@nestjs/common';
import { AccessRequests, type AccessStats, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { AccessStatsService } from './access-stats.service';

@Controller()
export class StatsHandler {
  constructor(private readonly stats: AccessStatsService) {}

  @Handles(AccessRequests.GetStats)
  get(request: RequestOf<typeof AccessRequests.GetStats>): Promise<AccessStats> {
    return this.stats.stats(request);
  }
}
