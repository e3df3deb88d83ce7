import { Injectable } from '@nestjs/common';
import { PAUSED_ACCESS_MODES, type PausedAccess, type SubscriptionSettingsView } from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { EntitlementsAnnouncer } from './entitlements-announcer.service';
import { SubscriptionSettings } from './subscription-settings.entity';

const DEFAULTS: SubscriptionSettingsView = { pausedAccess: 'keep' };

/**
 * A publication's subscription settings. They live with billing because billing decides what a
 * subscription entitles (the entitlements access asks for): `pausedAccess: suspend` leaves paused
 * subscriptions out of them, with no further question on the access check's path.
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
    return row ? { pausedAccess: row.pausedAccess } : DEFAULTS;
  }

  /** Access forgets, at once, what it held of the readers whose paused subscriptions the change concerns. */
  async save(publicationId: string, pausedAccess: PausedAccess): Promise<SubscriptionSettingsView> {
    if (!(PAUSED_ACCESS_MODES as readonly string[]).includes(pausedAccess)) throw AppError.invalid('pausedAccess', `must be one of ${PAUSED_ACCESS_MODES.join(', ')}`);
    return this.dataSource.transaction(async (manager) => {
      const before = await manager.findOne(SubscriptionSettings, { where: { publicationId }, lock: { mode: 'pessimistic_write' } });
      await manager.upsert(SubscriptionSettings, { publicationId, pausedAccess, updatedAt: this.clock.now() }, ['publicationId']);
      if ((before?.pausedAccess ?? DEFAULTS.pausedAccess) !== pausedAccess) {
        const paused: Array<{ customer_id: string }> = await manager.query(
          `SELECT DISTINCT customer_id FROM subscriptions WHERE publication_id = $1 AND status <> 'cancelled' AND paused_until > $2`,
          [publicationId, this.clock.now()],
        );
        for (const { customer_id } of paused) await this.entitlements.customer(manager, publicationId, customer_id);
      }
      return { pausedAccess };
    });
  }
}
