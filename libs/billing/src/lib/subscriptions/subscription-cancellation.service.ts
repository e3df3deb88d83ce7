import { Injectable } from '@nestjs/common';
import type { BillingRequests, CancellationReason, RequestOf, SubscriptionView } from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { wholeSecond } from '../shared/time';
import { snapshotOf } from './processor-snapshot';
import { ProcessorSubscriptionSync } from './processor-subscription-sync.service';
import { SubscriptionWriter } from './subscription-writer.service';
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

  /**
   * `customerId`: a reader cancelling their own; another customer's subscription is 404, as an
   * unknown one. `reason` is recorded and sent to the processor as its cancellation feedback.
   */
  async cancel(request: RequestOf<typeof BillingRequests.CancelSubscription>): Promise<SubscriptionView> {
    const { publicationId, subscriptionId, atPeriodEnd, customerId, reason } = request;
    const subscription = await this.subscriptions.find(publicationId, subscriptionId);
    if (customerId !== undefined && subscription.customerId !== customerId) throw new AppError('not_found', 'No such subscription.');
    if (subscription.status === 'cancelled') return subscriptionView(subscription);
    if (subscription.processorSubscriptionId) return this.atProcessor(subscription, atPeriodEnd, reason);
    return this.dataSource.transaction(async (manager) => {
      const locked = await manager.findOneOrFail(Subscription, { where: { id: subscription.id }, lock: { mode: 'pessimistic_write' } });
      const endsLater = atPeriodEnd && locked.currentPeriodEnd !== null && locked.status !== 'cancelled';
      await this.writer.change(manager, locked, { ...(endsLater ? { cancelAtPeriodEnd: true } : { status: 'cancelled' }), cancellationReason: reason });
      return subscriptionView(locked);
    });
  }

  private async atProcessor(subscription: Subscription, atPeriodEnd: boolean, reason: CancellationReason | undefined): Promise<SubscriptionView> {
    const client = await this.settings.requireClient(subscription.publicationId);
    const processorId = subscription.processorSubscriptionId as string;
    const feedback = reason ? { cancellation_details: { feedback: reason } } : {};
    const answer: Stripe.Subscription = await atProcessor('cancel the subscription', () =>
      atPeriodEnd ? client.subscriptions.update(processorId, { cancel_at_period_end: true, ...feedback }) : client.subscriptions.cancel(processorId, feedback),
    );
    const stateAt = wholeSecond(this.clock.now());
    return this.dataSource.transaction(async (manager) => {
      const { subscription: stored } = await this.sync.apply(manager, subscription.publicationId, snapshotOf(answer), stateAt);
      return subscriptionView(stored ?? subscription);
    });
  }
}
