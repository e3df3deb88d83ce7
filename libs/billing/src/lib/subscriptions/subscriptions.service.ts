import { Injectable } from '@nestjs/common';
import {
  IdentityRequests,
  NEVER_ENDS,
  type Page,
  isPurchase,
  type SubscriptionEntitlement,
  type PageRequest,
  type SubscriptionStatus,
  type SubscriptionView,
} from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { PricesService } from '../catalog/prices.service';
import { newestFirst, pageOf } from '@gatehouse/db';
import { newSubscription } from './new-subscription';
import { SubscriptionWriter } from './subscription-writer.service';
import { subscriptionView } from './subscription-views';
import { Subscription } from './subscription.entity';

export interface SubscriptionFilter extends PageRequest {
  customerId?: string;
  status?: SubscriptionStatus;
}

/** Reading subscriptions (decisions F5, H2), manual grants (F9) and what access needs (E6). */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly bus: BusClient,
    private readonly prices: PricesService,
    private readonly writer: SubscriptionWriter,
  ) {}

  list(publicationId: string, filter: SubscriptionFilter): Promise<Page<SubscriptionView>> {
    const query = this.dataSource
      .getRepository(Subscription)
      .createQueryBuilder('subscription')
      .where('subscription.publication_id = :publicationId', { publicationId });
    if (filter.customerId !== undefined) {
      if (!isUuid(filter.customerId)) throw AppError.invalid('customerId', 'must be a UUID');
      query.andWhere('subscription.customer_id = :customerId', { customerId: filter.customerId });
    }
    if (filter.status !== undefined) query.andWhere('subscription.status = :status', { status: filter.status });
    return pageOf(query, newestFirst(query.alias), filter, subscriptionView);
  }

  async get(publicationId: string, subscriptionId: string): Promise<SubscriptionView> {
    return subscriptionView(await this.find(publicationId, subscriptionId));
  }

  /** Newest first, cancelled ones included; 404 for a customer who is not in the publication. */
  async ofCustomer(publicationId: string, customerId: string): Promise<{ subscriptions: SubscriptionView[] }> {
    await this.customer(publicationId, customerId);
    const rows = await this.dataSource.getRepository(Subscription).find({ where: { publicationId, customerId }, order: { createdAt: 'DESC', id: 'DESC' } });
    return { subscriptions: rows.map(subscriptionView) };
  }

  /** Decisions F9: active now, until `currentPeriodEnd` when given and for good otherwise. */
  async grant(publicationId: string, customerId: string, priceId: string, currentPeriodEnd?: string): Promise<SubscriptionView> {
    const now = this.clock.now();
    const end = currentPeriodEnd === undefined ? null : new Date(currentPeriodEnd);
    if (end && (Number.isNaN(end.getTime()) || end <= now)) throw AppError.invalid('currentPeriodEnd', 'must be a time in the future');
    const price = await this.prices.find(publicationId, priceId);
    if (isPurchase(price.interval)) throw AppError.invalid('priceId', 'is a pass or single-article price: it is bought through a checkout, not granted');
    await this.customer(publicationId, customerId);
    const subscription = newSubscription({
      publicationId,
      customerId,
      priceId: price.id,
      status: 'active',
      source: 'manual',
      currentPeriodStart: now,
      currentPeriodEnd: end,
      now,
    });
    await this.dataSource.transaction((manager) => this.writer.insert(manager, subscription));
    return subscriptionView(subscription);
  }

  /**
   * Decisions E6: the subscriptions that may make the customer a subscriber, with what their
   * products unlock; a paused one only when the publication keeps access while paused. Then the
   * seats the customer holds in organisations whose term has not ended, with the term: the
   * decision compares it with the check's time, so a start or an end takes effect at the next
   * check (docs/organisations.md).
   */
  async entitlements(publicationId: string, customerId: string): Promise<SubscriptionEntitlement[]> {
    if (!isUuid(customerId)) return [];
    const rows: Array<{ id: string; status: SubscriptionStatus; past_due_since: Date | null; current_period_end: Date | null; entitlements: string[]; past_due_grace_days: number | null }> =
      await this.dataSource.query(
        `SELECT s.id, s.status, s.past_due_since, s.current_period_end, p.entitlements::text[] AS entitlements, ss.past_due_grace_days
         FROM subscriptions s JOIN prices pr ON pr.id = s.price_id JOIN products p ON p.id = pr.product_id
           LEFT JOIN subscription_settings ss ON ss.publication_id = s.publication_id
         WHERE s.publication_id = $1 AND s.customer_id = $2 AND s.status <> 'cancelled'
           AND NOT (s.source IN ('manual', 'gift') AND s.current_period_end IS NOT NULL AND s.current_period_end <= $3)
           AND NOT (s.paused_until IS NOT NULL AND s.paused_until > $3 AND COALESCE(ss.paused_access, 'keep') = 'suspend')
         ORDER BY s.created_at DESC`,
        [publicationId, customerId, this.clock.now()],
      );
    const seats: Array<{ id: string; name: string; starts_at: Date; ends_at: Date | null; entitlements: string[] }> = await this.dataSource.query(
      `SELECT o.id, o.name, o.starts_at, o.ends_at, p.entitlements::text[] AS entitlements
       FROM organisation_members m JOIN organisations o ON o.id = m.organisation_id JOIN products p ON p.id = o.product_id
       WHERE m.publication_id = $1 AND m.customer_id = $2 AND (o.ends_at IS NULL OR o.ends_at > $3)
       ORDER BY m.joined_at`,
      [publicationId, customerId, this.clock.now()],
    );
    return [
      ...rows.map((row) => ({
        kind: 'subscription' as const,
        subscriptionId: row.id,
        status: row.status,
        pastDueSince: row.past_due_since?.toISOString() ?? null,
        currentPeriodEnd: row.current_period_end?.toISOString() ?? NEVER_ENDS,
        paywallIds: row.entitlements,
        ...(row.past_due_grace_days === null ? {} : { pastDueGraceDays: row.past_due_grace_days }),
      })),
      ...seats.map((seat) => ({
        kind: 'subscription' as const,
        subscriptionId: null,
        organisation: { organisationId: seat.id, name: seat.name, startsAt: seat.starts_at.toISOString(), endsAt: seat.ends_at?.toISOString() ?? null },
        status: 'active' as const,
        pastDueSince: null,
        currentPeriodEnd: seat.ends_at?.toISOString() ?? NEVER_ENDS,
        paywallIds: seat.entitlements,
      })),
    ];
  }

  async find(publicationId: string, subscriptionId: string): Promise<Subscription> {
    const subscription = isUuid(subscriptionId) ? await this.dataSource.getRepository(Subscription).findOneBy({ id: subscriptionId, publicationId }) : null;
    if (!subscription) throw new AppError('not_found', 'No such subscription.');
    return subscription;
  }

  private async customer(publicationId: string, customerId: string) {
    if (!isUuid(customerId)) throw new AppError('not_found', 'No such customer.');
    return this.bus.request(IdentityRequests.GetCustomer, { publicationId, customerId });
  }
}
