import { Injectable } from '@nestjs/common';
import { PAST_DUE_GRACE_DAYS_MAX, PAUSED_ACCESS_MODES, type SubscriptionSettingsChange, type SubscriptionSettingsView } from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { EntitlementsAnnouncer } from './entitlements-announcer.service';
import { SubscriptionSettings } from './subscription-settings.entity';

const DEFAULTS: SubscriptionSettingsView = { pausedAccess: 'keep', pastDueGraceDays: null };

/**
 * A publication's subscription settings. They live with billing because billing decides what a
 * subscription entitles (the entitlements access asks for): `pausedAccess: suspend` leaves paused
 * subscriptions out of them, and `pastDueGraceDays` travels with each entitlement, with no further
 * question on the access check's path.
 */
@Injectable()
export class SubscriptionSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly entitlements: EntitlementsAnnouncer,
  ) {}

  async get(publicationId: string): Promise<SubscriptionSettingsView> {
    const row = await this.dataSource.getRepository(SubscriptionSettings).findOneBy({ publicationId });
    return row ? viewOf(row) : DEFAULTS;
  }

  /** What is absent stays. Access forgets, at once, what it held of the readers whose paused or past_due subscriptions the change concerns. */
  async save(publicationId: string, change: SubscriptionSettingsChange): Promise<SubscriptionSettingsView> {
    const { pausedAccess, pastDueGraceDays } = change;
    if (pausedAccess !== undefined && !(PAUSED_ACCESS_MODES as readonly string[]).includes(pausedAccess)) {
      throw AppError.invalid('pausedAccess', `must be one of ${PAUSED_ACCESS_MODES.join(', ')}`);
    }
    if (pastDueGraceDays !== undefined && pastDueGraceDays !== null && !(Number.isInteger(pastDueGraceDays) && pastDueGraceDays >= 0 && pastDueGraceDays <= PAST_DUE_GRACE_DAYS_MAX)) {
      throw AppError.invalid('pastDueGraceDays', `must be a whole number from 0 to ${PAST_DUE_GRACE_DAYS_MAX}, or null`);
    }
    return this.dataSource.transaction(async (manager) => {
      const row = await manager.findOne(SubscriptionSettings, { where: { publicationId }, lock: { mode: 'pessimistic_write' } });
      const before = row ? viewOf(row) : DEFAULTS;
      const after: SubscriptionSettingsView = {
        pausedAccess: pausedAccess ?? before.pausedAccess,
        pastDueGraceDays: pastDueGraceDays === undefined ? before.pastDueGraceDays : pastDueGraceDays,
      };
      await manager.upsert(SubscriptionSettings, { publicationId, ...after, updatedAt: this.clock.now() }, ['publicationId']);
      const concerned = [
        ...(before.pausedAccess !== after.pausedAccess ? ['paused_until > $2'] : []),
        ...(before.pastDueGraceDays !== after.pastDueGraceDays ? [`status = 'past_due'`] : []),
      ];
      if (concerned.length > 0) {
        const customers: Array<{ customer_id: string }> = await manager.query(
          `SELECT DISTINCT customer_id FROM subscriptions WHERE publication_id = $1 AND status <> 'cancelled' AND (${concerned.join(' OR ')})`,
          concerned[0] === 'paused_until > $2' ? [publicationId, this.clock.now()] : [publicationId],
        );
        for (const { customer_id } of customers) await this.entitlements.customer(manager, publicationId, customer_id);
      }
      return after;
    });
  }
}

function viewOf(row: SubscriptionSettings): SubscriptionSettingsView {
  return { pausedAccess: row.pausedAccess, pastDueGraceDays: row.pastDueGraceDays };
}
