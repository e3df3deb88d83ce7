import { Injectable } from '@nestjs/common';
import { AdminRequests, PaymentEmailRequests, WIN_BACK_DAYS_MAX, type WinBackSettingsChange, type WinBackSettingsView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { inBatches, PeriodicSweep } from '@gatehouse/db';
import { AppError, Clock } from '@gatehouse/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { noticeId } from '../inbound/payment-notices.service';
import { Offer } from '../offers/offer.entity';
import { OffersService } from '../offers/offers.service';
import { WinBackNotice } from './win-back-notice.entity';
import { WinBackSettings } from './win-back-settings.entity';

const DEFAULTS: WinBackSettingsView = { enabled: false, days: 30, offerId: null };
const SWEEP_INTERVAL_MS = 60_000;
const BATCH_SIZE = 20;

interface Due {
  id: string;
  publication_id: string;
  customer_id: string;
  offer_id: string;
}

/**
 * Win-back (issue #27 item 5): `days` after a cancellation took effect, the former subscriber is
 * emailed the publication's chosen offer (off by default), unless they subscribe again meanwhile;
 * nothing goes while that offer has ended.
 * Each cancelled subscription is written to once ever: the notice is recorded in the transaction
 * that asks identity to queue the email, under an id derived from the subscription, so a sweep
 * that fails after identity queued it queues nothing more when it runs again, and a restart finds
 * the record. Only cancellations whose day comes while win-back is on are written to: turning it
 * on does not email everyone who ever left. Replicas share the sweep through SKIP LOCKED.
 */
@Injectable()
export class WinBackService extends PeriodicSweep {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly bus: BusClient,
    private readonly offers: OffersService,
  ) {
    super(SWEEP_INTERVAL_MS, 'Sending win-back email');
  }

  async get(publicationId: string): Promise<WinBackSettingsView> {
    const row = await this.dataSource.getRepository(WinBackSettings).findOneBy({ publicationId });
    return row ? { enabled: row.enabled, days: row.days, offerId: row.offerId } : DEFAULTS;
  }

  /** What is absent stays. Turning it on needs an offer of the publication. */
  async save(publicationId: string, change: WinBackSettingsChange): Promise<WinBackSettingsView> {
    const { enabled, days, offerId } = change;
    if (enabled !== undefined && typeof enabled !== 'boolean') throw AppError.invalid('enabled', 'must be true or false');
    if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= WIN_BACK_DAYS_MAX)) throw AppError.invalid('days', `must be a whole number from 1 to ${WIN_BACK_DAYS_MAX}`);
    if (offerId !== undefined && offerId !== null) {
      const offer = await this.offers.findOne(publicationId, offerId);
      if (!offer) throw new AppError('not_found', 'No such offer.');
      if (!offer.active || (offer.endsAt && offer.endsAt <= this.clock.now())) throw AppError.invalid('offerId', 'has ended: choose a live offer');
    }
    return this.dataSource.transaction(async (manager) => {
      const row = await manager.findOne(WinBackSettings, { where: { publicationId }, lock: { mode: 'pessimistic_write' } });
      const before = row ? { enabled: row.enabled, days: row.days, offerId: row.offerId } : DEFAULTS;
      const after: WinBackSettingsView = { enabled: enabled ?? before.enabled, days: days ?? before.days, offerId: offerId === undefined ? before.offerId : offerId };
      if (after.enabled && !after.offerId) throw AppError.invalid('offerId', 'is needed to turn win-back on: the offer the email carries');
      const now = this.clock.now();
      const enabledAt = after.enabled ? (before.enabled && row?.enabledAt ? row.enabledAt : now) : null;
      await manager.upsert(WinBackSettings, { publicationId, ...after, enabledAt, updatedAt: now }, ['publicationId']);
      return after;
    });
  }

  /** Emails every former subscriber whose day has come; resolves with how many were asked for. */
  sweep(): Promise<number> {
    return inBatches(this.dataSource, BATCH_SIZE, async (manager) => {
      const due: Due[] = await manager.query(
        `SELECT s.id, s.publication_id, s.customer_id, w.offer_id FROM subscriptions s
         JOIN win_back_settings w ON w.publication_id = s.publication_id AND w.enabled
         JOIN offers o ON o.id = w.offer_id AND o.active AND (o.ends_at IS NULL OR o.ends_at > $1)
         WHERE s.status = 'cancelled'
           AND s.cancelled_at + make_interval(days => w.days) <= $1
           AND s.cancelled_at + make_interval(days => w.days) >= w.enabled_at
           AND NOT EXISTS (SELECT 1 FROM win_back_notices n WHERE n.subscription_id = s.id)
           AND NOT EXISTS (SELECT 1 FROM subscriptions l WHERE l.publication_id = s.publication_id AND l.customer_id = s.customer_id AND l.status <> 'cancelled')
         ORDER BY s.cancelled_at
         LIMIT ${BATCH_SIZE}
         FOR UPDATE OF s SKIP LOCKED`,
        [this.clock.now()],
      );
      for (const subscription of due) await this.send(manager, subscription);
      return due.length;
    });
  }

  private async send(manager: EntityManager, due: Due): Promise<void> {
    const { id: subscriptionId, publication_id: publicationId, customer_id: customerId, offer_id: offerId } = due;
    await manager.insert(WinBackNotice, { subscriptionId, publicationId, customerId, offerId, sentAt: this.clock.now() });
    const offer = await manager.findOneByOrFail(Offer, { id: offerId });
    const publication = await this.bus.request(AdminRequests.GetPublication, { publicationId });
    const domain = publication.verifiedDomains.find((d) => !d.startsWith('*.'));
    const link = domain ? `https://${domain}/?offer=${encodeURIComponent(offer.code)}` : null;
    const { queued } = await this.bus.request(PaymentEmailRequests.SendPaymentNotice, {
      publicationId,
      customerId,
      noticeId: noticeId(publicationId, subscriptionId, 'win_back'),
      kind: 'win_back',
      link,
      code: offer.code,
    });
    // Kept, so it is not asked again; not an email sent.
    if (!queued) await manager.update(WinBackNotice, { subscriptionId }, { queued: false });
  }
}
