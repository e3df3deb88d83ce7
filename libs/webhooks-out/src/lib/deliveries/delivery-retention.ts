import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { deleteInBatches, repeatEvery, runExclusively } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { WebhooksOutConfig } from '../webhooks-out.config';

const RUN_EVERY_MS = 3600_000;
const DAY_MS = 24 * 3600_000;

/**
 * Keeps the delivery log from growing without bound: finished deliveries (and, by cascade, their
 * attempts) older than DELIVERY_LOG_RETENTION_DAYS go, in small batches, hourly, by one replica
 * at a time. A delivery still pending is kept whatever its age.
 */
@Injectable()
export class DeliveryRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliveryRetention.name);
  private stop: () => void = () => undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: WebhooksOutConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = repeatEvery(RUN_EVERY_MS, () => this.prune(), (err) => this.logger.warn(`Pruning the delivery log failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  onModuleDestroy(): void {
    this.stop();
  }

  /** One round: how many deliveries went; undefined when another replica is running it. */
  prune(): Promise<number | undefined> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.DELIVERY_LOG_RETENTION_DAYS * DAY_MS);
    return runExclusively(this.dataSource, 'retention:webhooks-out', () =>
      deleteInBatches(this.dataSource, 'deliveries', "created_at < $1 AND status <> 'pending'", [cutoff], 500),
    );
  }
}
