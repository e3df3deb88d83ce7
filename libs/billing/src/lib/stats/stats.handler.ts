import { Controller } from '@nestjs/common';
import { BillingRequests, type BillingStats, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { BillingStatsService } from './billing-stats.service';

@Controller()
export class StatsHandler {
  constructor(private readonly stats: BillingStatsService) {}

  @Handles(BillingRequests.GetStats)
  get({ publicationId, from, to, interval }: RequestOf<typeof BillingRequests.GetStats>): Promise<BillingStats> {
    return this.stats.stats(publicationId, from, to, interval);
  }
}
