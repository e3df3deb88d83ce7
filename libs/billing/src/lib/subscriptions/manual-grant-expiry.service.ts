import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { SubscriptionWriter } from './subscription-writer.service';
import { Subscription } from './subscription.entity';

const SWEEP_INTERVAL_MS = 60_000;
const BATCH_SIZE = 100;

/**
 * Ends manual grants and gift subscriptions whose `currentPeriodEnd` has passed (neither renews),
 * announcing each as the processor's own end of a subscription would be. Replicas share the work through SKIP LOCKED; until a sweep
 * runs, entitlements already leave expired grants out.
 */
@Injectable()
export class ManualGrantExpiry implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ManualGrantExpiry.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly writer: SubscriptionWriter,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running = this.sweep().catch((err: unknown) => this.logger.warn(`Ending expired manual grants failed: ${err instanceof Error ? err.message : String(err)}`));
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Ends every grant expired by now; resolves with how many. */
  async sweep(): Promise<number> {
    let ended = 0;
    for (;;) {
      const batch = await this.dataSource.transaction(async (manager) => {
        const expired = await manager
          .createQueryBuilder(Subscription, 'subscription')
          .setLock('pessimistic_write')
          .setOnLocked('skip_locked')
          .where("subscription.source IN ('manual', 'gift') AND subscription.status <> 'cancelled'")
          .andWhere('subscription.current_period_end <= :now', { now: this.clock.now() })
          .limit(BATCH_SIZE)
          .getMany();
        for (const subscription of expired) await this.writer.change(manager, subscription, { status: 'cancelled' });
        return expired.length;
      });
      ended += batch;
      if (batch < BATCH_SIZE) return ended;
    }
  }
}
