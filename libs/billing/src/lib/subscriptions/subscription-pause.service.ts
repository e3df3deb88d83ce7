import { Injectable } from '@nestjs/common';
import { PAUSE_MONTHS_MAX, type PauseRequest, type SubscriptionView } from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { wholeSecond } from '../shared/time';
import { snapshotOf } from './processor-snapshot';
import { ProcessorSubscriptionSync } from './processor-subscription-sync.service';
import { changeableAtProcessor } from './subscription-scope';
import { subscriptionView } from './subscription-views';
import { SubscriptionsService } from './subscriptions.service';

/** The same day of the month `months` later (UTC), or that month's last day when it is shorter. */
export function monthsLater(start: Date, months: number): Date {
  const target = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return target;
}

/**
 * Pausing collection (issue #27, item 3): the processor's `pause_collection` with `behavior:
 * void` (invoices of the paused time are voided: nothing is charged for it) and `resumes_at`,
 * when the processor resumes by itself. Resuming early clears it. The processor answers first;
 * its answer is stored, so a refusal (502) changes nothing. Whether a paused subscription still
 * entitles is the publication's `pausedAccess` setting, read with the entitlements.
 */
@Injectable()
export class SubscriptionPauseService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly subscriptions: SubscriptionsService,
    private readonly settings: ProcessorSettingsService,
    private readonly sync: ProcessorSubscriptionSync,
  ) {}

  async pause({ publicationId, subscriptionId, months, customerId }: PauseRequest): Promise<SubscriptionView> {
    if (!Number.isInteger(months) || months < 1 || months > PAUSE_MONTHS_MAX) throw AppError.invalid('months', `must be a whole number from 1 to ${PAUSE_MONTHS_MAX}`);
    const subscription = await this.subscriptions.find(publicationId, subscriptionId);
    const processorId = changeableAtProcessor(subscription, customerId, 'pause');
    const resumesAt = Math.floor(monthsLater(this.clock.now(), months).getTime() / 1000);
    return this.updateAtProcessor(publicationId, 'pause the subscription', (client) =>
      client.subscriptions.update(processorId, { pause_collection: { behavior: 'void', resumes_at: resumesAt } }),
    );
  }

  async resume({ publicationId, subscriptionId, customerId }: { publicationId: string; subscriptionId: string; customerId?: string }): Promise<SubscriptionView> {
    const subscription = await this.subscriptions.find(publicationId, subscriptionId);
    const processorId = changeableAtProcessor(subscription, customerId, 'resume');
    if (!subscription.pausedUntil) throw new AppError('conflict', 'This subscription is not paused.');
    return this.updateAtProcessor(publicationId, 'resume the subscription', (client) => client.subscriptions.update(processorId, { pause_collection: '' }));
  }

  /** A change made at the processor first, then stored as it answered (a save offer's discount is one). */
  async updateAtProcessor(publicationId: string, action: string, call: (client: Stripe) => Promise<Stripe.Subscription>): Promise<SubscriptionView> {
    const client = await this.settings.requireClient(publicationId);
    const answer = await atProcessor(action, () => call(client));
    const stateAt = wholeSecond(this.clock.now());
    return this.dataSource.transaction(async (manager) => {
      const { subscription } = await this.sync.apply(manager, publicationId, snapshotOf(answer), stateAt);
      if (!subscription) throw new AppError('not_found', 'No such subscription.');
      return subscriptionView(subscription);
    });
  }
}
