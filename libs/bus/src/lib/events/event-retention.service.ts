import { Inject, Injectable } from '@nestjs/common';
import { deleteInBatches, RetentionJob } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { BUS_OPTIONS, type BusOptions } from '../bus-options';

/**
 * How long events are kept unless EVENT_RETENTION_DAYS says otherwise: the stream's max age
 * (JetStream drops older messages, so nothing older can be redelivered), and therefore also how
 * long published outbox rows and the ids of handled events are worth keeping.
 */
export const EVENT_RETENTION_MS = 7 * 24 * 3600_000;

/** Deletes the published outbox rows and handled-event ids the stream's age has made useless. */
@Injectable()
export class EventRetention extends RetentionJob<{ outbox: number; processed: number }> {
  private readonly retentionMs: number;

  constructor(dataSource: DataSource, clock: Clock, @Inject(BUS_OPTIONS) options: BusOptions) {
    super(dataSource, clock, `events:${options.service}`);
    this.retentionMs = options.stream?.maxAgeMs ?? EVENT_RETENTION_MS;
  }

  protected async round(now: Date): Promise<{ outbox: number; processed: number }> {
    const cutoff = new Date(now.getTime() - this.retentionMs);
    const outbox = await deleteInBatches(this.dataSource, 'outbox', 'published_at < $1', [cutoff]);
    const processed = await deleteInBatches(this.dataSource, 'processed_events', 'processed_at < $1', [cutoff]);
    return { outbox, processed };
  }
}
