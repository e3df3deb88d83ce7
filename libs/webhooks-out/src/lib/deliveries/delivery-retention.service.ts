import { Injectable } from '@nestjs/common';
import { daysBefore, deleteInBatches, RetentionJob } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { WebhooksOutConfig } from '../webhooks-out.config';

/**
 * Keeps the delivery log from growing without bound: finished deliveries (and, by cascade, their
 * attempts) older than DELIVERY_LOG_RETENTION_DAYS go, in small batches. A delivery still pending
 * is kept whatever its age. `prune()` answers how many deliveries went.
 */
@Injectable()
export class DeliveryRetention extends RetentionJob<number> {
  constructor(
    dataSource: DataSource,
    clock: Clock,
    private readonly config: WebhooksOutConfig,
  ) {
    super(dataSource, clock, 'webhooks-out');
  }

  protected round(now: Date): Promise<number> {
    return deleteInBatches(this.dataSource, 'deliveries', "created_at < $1 AND status <> 'pending'", [daysBefore(now, this.config.DELIVERY_LOG_RETENTION_DAYS)], 500);
  }
}
