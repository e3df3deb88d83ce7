import { Injectable } from '@nestjs/common';
import { daysBefore, deleteInBatches, RetentionJob } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { BillingConfig } from '../billing.config';

export interface BillingPruned {
  /** Inbound processor events processed before the cutoff. */
  processorEvents: number;
  /** The processor's ids of accounts an erasure deleted before the cutoff. */
  erasedProcessorCustomers: number;
  /** Checkout sessions, a gift's included, started before the cutoff and never completed. */
  abandonedCheckouts: number;
  /** Records of payment email asked PAYMENT_NOTICE_RETENTION_DAYS ago. */
  paymentNotices: number;
}

/** Longer than any invoice's retries last (the processor's schedules end within two months), so no stage is told twice. */
export const PAYMENT_NOTICE_RETENTION_DAYS = 90;

/**
 * Keeps billing's tables from growing without bound: an inbound processor event processed more
 * than PROCESSOR_EVENT_RETENTION_DAYS ago goes (the processor stops redelivering within days), one
 * not processed yet stays whatever its age; the processor's ids of accounts an erasure deleted go
 * after the same time (by then the processor has sent all it will about them), and so does a
 * checkout started as long ago and never completed (the processor's session expired within a day),
 * a gift's never paid included.
 * A completed checkout stays: it is the record of a purchase and of the experiment variant it
 * converted. The record of a payment email goes after PAYMENT_NOTICE_RETENTION_DAYS.
 */
@Injectable()
export class BillingRetention extends RetentionJob<BillingPruned> {
  constructor(
    dataSource: DataSource,
    clock: Clock,
    private readonly config: BillingConfig,
  ) {
    super(dataSource, clock, 'billing');
  }

  protected async round(now: Date): Promise<BillingPruned> {
    const cutoff = [daysBefore(now, this.config.PROCESSOR_EVENT_RETENTION_DAYS)];
    const processorEvents = await deleteInBatches(this.dataSource, 'processor_events', 'processed_at < $1', cutoff);
    const abandonedCheckouts =
      (await deleteInBatches(this.dataSource, 'checkout_sessions', 'completed_at IS NULL AND created_at < $1', cutoff)) +
      (await deleteInBatches(this.dataSource, 'gifts', "status = 'pending' AND created_at < $1", cutoff));
    const erasedProcessorCustomers = await deleteInBatches(this.dataSource, 'erased_processor_customers', 'erased_at < $1', cutoff);
    const paymentNotices = await deleteInBatches(this.dataSource, 'payment_notices', 'created_at < $1', [daysBefore(now, PAYMENT_NOTICE_RETENTION_DAYS)]);
    return { processorEvents, erasedProcessorCustomers, abandonedCheckouts, paymentNotices };
  }
}
