import { Injectable } from '@nestjs/common';
import { daysBefore, deleteInBatches, RetentionJob } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { BillingConfig } from '../billing.config';

/**
 * Keeps billing's record of the processor's inbound events from growing without bound: an event
 * processed more than PROCESSOR_EVENT_RETENTION_DAYS ago goes (the processor stops redelivering
 * within days); one not processed yet stays whatever its age. The processor's ids of accounts an
 * erasure deleted go after the same time: by then the processor has sent all it will about them.
 * `prune()` answers how many rows went.
 */
@Injectable()
export class BillingRetention extends RetentionJob<number> {
  constructor(
    dataSource: DataSource,
    clock: Clock,
    private readonly config: BillingConfig,
  ) {
    super(dataSource, clock, 'billing');
  }

  protected async round(now: Date): Promise<number> {
    const before = daysBefore(now, this.config.PROCESSOR_EVENT_RETENTION_DAYS);
    const events = await deleteInBatches(this.dataSource, 'processor_events', 'processed_at < $1', [before]);
    return events + (await deleteInBatches(this.dataSource, 'erased_processor_customers', 'erased_at < $1', [before]));
  }
}
