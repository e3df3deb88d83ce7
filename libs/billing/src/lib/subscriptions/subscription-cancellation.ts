import { Injectable } from '@nestjs/common';
import type { SubscriptionView } from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { atProcessor } from '../processor/processor-clients';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { wholeSecond } from '../shared/time';
import { snapshotOf } from './processor-snapshot';
import { ProcessorSubscriptionSync } from './processor-subscription-sync';
import { SubscriptionWriter } from './subscription-writer';
import { subscriptionView } from './subscription-views';
import { Subscription } from './subscription.entity';
import { SubscriptionsService } from './subscriptions.service';

/**
 * Decisions F8. A processor subscription is cancelled at the processor first and stored as the
 * processor answers, so a refusal (502) changes nothing here. At the period end it stays active
 * with `cancelAtPeriodEnd`; otherwise it is cancelled now. Lifetime purchases and manual grants
 * have nothing to cancel at the processor.
 */
@Injectable()
export class SubscriptionCancellation {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly subscriptions: SubscriptionsService,
    private readonly settings: ProcessorSettingsService,
    private readonly sync: ProcessorSubscriptionSync,
    private readonly writer: SubscriptionWriter,
  ) {}

  async cancel(publicationId: string, subscriptionId: string, atPeriodEnd: boolean): Promise<SubscriptionView> {
    const subscription = await this.subscriptions.find(publicationId, subscriptionId);
    if (subscription.status === 'cancelled') return subscriptionView(subscription);
    if (subscription.processorSubscriptionId) return this.atProcessor(subscription, atPeriodEnd);
    return this.dataSource.transaction(async (manager) => {
      const locked = await manager.findOneOrFail(Subscription, { where: { id: subscription.id }, lock: { mode: 'pessimistic_write' } });
      const endsLater = atPeriodEnd && locked.currentPeriodEnd !== null && locked.status !== 'cancelled';
      await this.writer.change(manager, locked, endsLater ? { cancelAtPeriodEnd: true } : { status: 'cancelled' });
      return subscriptionView(locked);
    });
  }

  private async atProcessor(subscription: Subscription, atPeriodEnd: boolean): Promise<SubscriptionView> {
    const client = await this.settings.requireClient(subscription.publicationId);
    const processorId = subscription.processorSubscriptionId as string;
    const answer: Stripe.Subscription = await atProcessor('cancel the subscription', () =>
      atPeriodEnd ? client.subscriptions.update(processorId, { cancel_at_period_end: true }) : client.subscriptions.cancel(processorId),
    );
    const stateAt = wholeSecond(this.clock.now());
    return this.dataSource.transaction(async (manager) => {
      const { subscription: stored } = await this.sync.apply(manager, subscription.publicationId, snapshotOf(answer), stateAt);
      return subscriptionView(stored ?? subscription);
    });
  }
}
