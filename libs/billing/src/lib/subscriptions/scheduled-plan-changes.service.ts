import { Injectable } from '@nestjs/common';
import { inBatches, PeriodicSweep } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { wholeSecond } from '../shared/time';
import { snapshotOf } from './processor-snapshot';
import { ProcessorSubscriptionSync } from './processor-subscription-sync.service';
import { SubscriptionWriter } from './subscription-writer.service';
import { Subscription } from './subscription.entity';

const SWEEP_INTERVAL_MS = 60_000;
/** How long before the period end a recorded change is made, so the processor's renewal already bills the new price. */
export const SCHEDULED_CHANGE_LEAD_MS = 60 * 60_000;
const BATCH_SIZE = 20;

/**
 * Makes the plan changes recorded for the period end: within {@link SCHEDULED_CHANGE_LEAD_MS} of
 * it, the processor is told the new price without proration (nothing is charged or credited; the
 * renewal invoice is at the new price). A subscription cancelled at the period end renews at no
 * price, so its change waits (and goes when the cancellation does). Replicas share the work
 * through SKIP LOCKED; a change the processor refuses stays recorded and is tried again by the next sweep.
 */
@Injectable()
export class ScheduledPlanChanges extends PeriodicSweep {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly settings: ProcessorSettingsService,
    private readonly sync: ProcessorSubscriptionSync,
    private readonly writer: SubscriptionWriter,
  ) {
    super(SWEEP_INTERVAL_MS, 'Making scheduled plan changes');
  }

  /** Makes every change due by now; resolves with how many were made. */
  async sweep(): Promise<number> {
    let made = 0;
    const failed: string[] = [];
    await inBatches(this.dataSource, BATCH_SIZE, async (manager) => {
      const query = manager
        .createQueryBuilder(Subscription, 'subscription')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where("subscription.scheduled_price_id IS NOT NULL AND subscription.status <> 'cancelled' AND NOT subscription.cancel_at_period_end")
        .andWhere('subscription.current_period_end <= :due', { due: new Date(this.clock.now().getTime() + SCHEDULED_CHANGE_LEAD_MS) })
        .orderBy('subscription.current_period_end')
        .limit(BATCH_SIZE);
      if (failed.length > 0) query.andWhere('subscription.id NOT IN (:...failed)', { failed });
      const batch = await query.getMany();
      for (const subscription of batch) {
        if (await this.make(manager, subscription)) made += 1;
        else failed.push(subscription.id);
      }
      return batch.length;
    });
    return made;
  }

  private async make(manager: EntityManager, subscription: Subscription): Promise<boolean> {
    const price = await manager.findOneBy(Price, { id: subscription.scheduledPriceId as string, publicationId: subscription.publicationId });
    if (!price?.processorPriceId || !subscription.processorSubscriptionId) {
      await this.writer.change(manager, subscription, { scheduledPriceId: null });
      return false;
    }
    try {
      const client = await this.settings.requireClient(subscription.publicationId);
      const processorId = subscription.processorSubscriptionId;
      const current = await atProcessor('read the subscription', () => client.subscriptions.retrieve(processorId));
      const itemId = current.items.data[0]?.id as string;
      const answer = await atProcessor('change the plan', () =>
        client.subscriptions.update(processorId, { items: [{ id: itemId, price: price.processorPriceId as string }], proration_behavior: 'none' }),
      );
      await this.sync.apply(manager, subscription.publicationId, snapshotOf(answer), wholeSecond(this.clock.now()));
      return true;
    } catch (err) {
      this.logger.warn(`The plan change of subscription ${subscription.id} was not made: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }
}
