import { Injectable } from '@nestjs/common';
import { inBatches, PeriodicSweep } from '@gatehouse/db';
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
export class ManualGrantExpiry extends PeriodicSweep {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly writer: SubscriptionWriter,
  ) {
    super(SWEEP_INTERVAL_MS, 'Ending expired manual grants');
  }

  /** Ends every grant expired by now; resolves with how many. */
  sweep(): Promise<number> {
    return inBatches(this.dataSource, BATCH_SIZE, async (manager) => {
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
  }
}
