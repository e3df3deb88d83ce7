import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { describeError } from './describe-error';

/**
 * How long events are kept: the stream's max age (JetStream drops older messages, so nothing older
 * can be redelivered), and therefore also how long published outbox rows and the ids of handled
 * events are worth keeping.
 */
export const EVENT_RETENTION_MS = 7 * 24 * 3600_000;
const PRUNE_INTERVAL_MS = 3600_000;

/** Deletes what the retention period has made useless; replicas may prune at once, the deletes are idempotent. */
@Injectable()
export class EventRetention {
  private readonly logger = new Logger(EventRetention.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.prune().catch((err: unknown) => this.logger.warn(`Pruning old events failed: ${describeError(err)}`));
    }, PRUNE_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Published outbox rows and handled-event ids older than the retention period; answers how many went. */
  async prune(): Promise<{ outbox: number; processed: number }> {
    const cutoff = new Date(this.clock.now().getTime() - EVENT_RETENTION_MS);
    const [, outbox] = (await this.dataSource.query('DELETE FROM outbox WHERE published_at < $1', [cutoff])) as [unknown, number];
    const [, processed] = (await this.dataSource.query('DELETE FROM processed_events WHERE processed_at < $1', [cutoff])) as [unknown, number];
    return { outbox, processed };
  }
}
