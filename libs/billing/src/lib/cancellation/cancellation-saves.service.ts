import { Injectable } from '@nestjs/common';
import {
  BillingRequests,
  CANCELLATION_REASONS,
  isOneTime,
  PAUSE_MONTHS_MAX,
  type CancellationOptions,
  type CancellationReason,
  type CancellationReasonSetting,
  type CancellationReasonsView,
  type SaveAcceptance,
  type SaveOfferSetting,
  type SaveOfferView,
  type RequestOf,
  type SubscriptionView,
} from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { PricesService } from '../catalog/prices.service';
import { Product } from '../catalog/product.entity';
import { OffersService, termsOf } from '../offers/offers.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { PlanChangeService, monthlyEquivalent } from '../subscriptions/plan-change.service';
import { SubscriptionPauseService } from '../subscriptions/subscription-pause.service';
import { changeableAtProcessor } from '../subscriptions/subscription-scope';
import type { Subscription } from '../subscriptions/subscription.entity';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { CancellationAnswer } from './cancellation-answer.entity';
import { CancellationReasonRow } from './cancellation-reason.entity';

/** Until staff change them: the reasons the account element always showed, in its order, without save offers. */
const SHOWN_BY_DEFAULT: CancellationReason[] = ['too_expensive', 'unused', 'switched_service', 'missing_features', 'low_quality', 'other'];
const LABEL_MAX = 120;

/**
 * Cancellation that tries to save (issue #27 item 2). Staff keep, per publication, which of the
 * processor's cancellation reasons readers pick from, under which label, and the save offer each
 * brings; a reader who accepts one has it applied at the processor instead of cancelling: the
 * offer's coupon on the subscription, a pause, or the switch to the cheaper price (at the period
 * end, as every downgrade). A reader who declines cancels with the reason. Both answers are
 * recorded, once per subscription each, for the stats.
 */
@Injectable()
export class CancellationSaves {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly subscriptions: SubscriptionsService,
    private readonly prices: PricesService,
    private readonly offers: OffersService,
    private readonly settings: ProcessorSettingsService,
    private readonly pauses: SubscriptionPauseService,
    private readonly planChanges: PlanChangeService,
  ) {}

  async reasons(publicationId: string): Promise<CancellationReasonsView> {
    const rows = await this.dataSource.getRepository(CancellationReasonRow).find({ where: { publicationId }, order: { position: 'ASC' } });
    if (rows.length === 0) return { reasons: CANCELLATION_REASONS.map((reason) => ({ reason, label: null, enabled: SHOWN_BY_DEFAULT.includes(reason), save: null })) };
    return { reasons: rows.map(settingOf) };
  }

  /** Replaces the list; every reason once, in the readers' order. A refusal names its field and changes nothing. */
  async saveReasons(publicationId: string, reasons: CancellationReasonSetting[]): Promise<CancellationReasonsView> {
    if (!Array.isArray(reasons) || reasons.length !== CANCELLATION_REASONS.length || new Set(reasons.map((r) => r?.reason)).size !== reasons.length) {
      throw AppError.invalid('reasons', `must list each of ${CANCELLATION_REASONS.join(', ')} once`);
    }
    const rows: CancellationReasonRow[] = [];
    for (const [position, setting] of reasons.entries()) rows.push(await this.validRow(publicationId, position, setting));
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(CancellationReasonRow, { publicationId });
      await manager.insert(CancellationReasonRow, rows);
    });
    return { reasons: rows.map(settingOf) };
  }

  /** The enabled reasons, each with its save offer as it applies to this subscription (none when it does not). */
  async options(publicationId: string, subscriptionId: string, customerId?: string): Promise<CancellationOptions> {
    const subscription = await this.subscriptions.find(publicationId, subscriptionId);
    if (customerId !== undefined && subscription.customerId !== customerId) throw new AppError('not_found', 'No such subscription.');
    const { reasons } = await this.reasons(publicationId);
    const options: CancellationOptions['reasons'] = [];
    for (const { reason, label, enabled, save } of reasons) {
      if (enabled) options.push({ reason, label, save: save && (await this.applicable(subscription, save)) });
    }
    return { reasons: options };
  }

  /** Applies the reason's save offer at the processor; once per subscription. A processor refusal (502) changes nothing and may be tried again. */
  async accept(publicationId: string, subscriptionId: string, reason: CancellationReason, customerId?: string): Promise<SaveAcceptance> {
    if (!CANCELLATION_REASONS.includes(reason)) throw AppError.invalid('reason', `must be one of ${CANCELLATION_REASONS.join(', ')}`);
    const subscription = await this.subscriptions.find(publicationId, subscriptionId);
    const processorId = changeableAtProcessor(subscription, customerId, 'keep with a save offer');
    // A save keeps a subscription from cancelling; one already cancelling at its period end is undone by resuming it in the portal first.
    if (subscription.cancelAtPeriodEnd) throw new AppError('conflict', 'This subscription is already cancelled at the end of its period: there is nothing to save.');
    const setting = (await this.reasons(publicationId)).reasons.find((one) => one.reason === reason);
    const save = await this.saveFor(subscription, reason);
    if (!setting?.save || !save) throw new AppError('conflict', 'There is no save offer for this reason.');
    const claim = await this.record(this.dataSource.manager, subscription, reason, save.kind, true);
    if (!claim) throw new AppError('conflict', 'A save offer was accepted for this subscription already.');
    try {
      return { kind: save.kind, subscription: await this.apply(subscription, processorId, setting.save) };
    } catch (err) {
      await this.dataSource.getRepository(CancellationAnswer).delete({ id: claim });
      throw err;
    }
  }

  /**
   * A cancellation with a reason, recorded with the save offer it turned down (the one the reader
   * was shown, so it is read before the cancellation); once per subscription.
   */
  async cancelWithReason(request: RequestOf<typeof BillingRequests.CancelSubscription>, cancel: () => Promise<SubscriptionView>): Promise<SubscriptionView> {
    const { publicationId, subscriptionId, reason } = request;
    if (!reason) return cancel();
    const subscription = await this.subscriptions.find(publicationId, subscriptionId);
    const declined = subscription.status === 'cancelled' ? null : await this.saveFor(subscription, reason);
    const cancelled = await cancel();
    if (subscription.status !== 'cancelled') await this.record(this.dataSource.manager, subscription, reason, declined?.kind ?? null, false);
    return cancelled;
  }

  /** The reason's save offer as this subscription would get it, if the reason is shown and has one. */
  private async saveFor(subscription: Subscription, reason: CancellationReason): Promise<SaveOfferView | null> {
    const setting = (await this.reasons(subscription.publicationId)).reasons.find((one) => one.reason === reason);
    return setting?.enabled && setting.save ? this.applicable(subscription, setting.save) : null;
  }

  private async apply(subscription: Subscription, processorId: string, save: SaveOfferSetting) {
    const { publicationId, id: subscriptionId } = subscription;
    if (save.kind === 'pause') return this.pauses.pause({ publicationId, subscriptionId, months: save.months });
    if (save.kind === 'plan_change') return (await this.planChanges.change({ publicationId, subscriptionId, priceId: save.priceId })).subscription;
    const client = await this.settings.requireClient(publicationId);
    const offer = await this.offers.findOne(publicationId, save.offerId);
    if (!offer) throw new AppError('conflict', 'There is no save offer for this reason.');
    await this.offers.ready(client, offer);
    return this.pauses.updateAtProcessor(publicationId, 'apply the discount', (c) => c.subscriptions.update(processorId, { discounts: [{ coupon: offer.processorCouponId as string }] }));
  }

  /** The answer's id, or null when the subscription has one of its kind already. */
  private async record(manager: EntityManager, subscription: Subscription, reason: CancellationReason, saveKind: SaveOfferSetting['kind'] | null, accepted: boolean): Promise<string | null> {
    const id = randomUUID();
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(CancellationAnswer)
      .values({ id, publicationId: subscription.publicationId, subscriptionId: subscription.id, reason, saveKind, accepted, answeredAt: this.clock.now() })
      .orIgnore()
      .returning('id')
      .execute();
    return (inserted.raw as unknown[]).length > 0 ? id : null;
  }

  /** The save as this subscription would get it: a live offer for its price, or a cheaper price for sale in its currency; else null. */
  private async applicable(subscription: Subscription, save: SaveOfferSetting): Promise<SaveOfferView | null> {
    if (subscription.status === 'cancelled' || !subscription.processorSubscriptionId) return null;
    if (save.kind === 'pause') return { kind: 'pause', months: save.months };
    const manager = this.dataSource.manager;
    const current = await manager.findOneBy(Price, { id: subscription.priceId });
    if (!current) return null;
    if (save.kind === 'discount') {
      const offer = await this.offers.findOne(subscription.publicationId, save.offerId);
      const now = this.clock.now();
      const live = offer && offer.active && offer.kind !== 'trial' && (!offer.startsAt || offer.startsAt <= now) && (!offer.endsAt || offer.endsAt > now);
      const fits = live && (offer.priceIds.length === 0 || offer.priceIds.includes(current.id)) && (offer.kind !== 'amount' || offer.currency === current.currency);
      return fits ? { kind: 'discount', offer: termsOf(offer) } : null;
    }
    const price = await manager.findOneBy(Price, { id: save.priceId, publicationId: subscription.publicationId, active: true });
    const product = price && (await manager.findOneBy(Product, { id: price.productId, active: true }));
    if (!price || !product || isOneTime(price.interval) || price.currency !== current.currency || monthlyEquivalent(price) >= monthlyEquivalent(current)) return null;
    const { id, productId, currency, unitAmount, interval, trialDays, passHours } = price;
    return { kind: 'plan_change', price: { id, productId, productName: product.name, currency, unitAmount, interval, trialDays, passHours } };
  }

  private async validRow(publicationId: string, position: number, setting: CancellationReasonSetting): Promise<CancellationReasonRow> {
    const field = `reasons[${position}]`;
    if (!CANCELLATION_REASONS.includes(setting.reason)) throw AppError.invalid(`${field}.reason`, `must be one of ${CANCELLATION_REASONS.join(', ')}`);
    const label = typeof setting.label === 'string' ? setting.label.trim() : null;
    if (setting.label !== null && setting.label !== undefined && (!label || label.length > LABEL_MAX)) throw AppError.invalid(`${field}.label`, `must be 1 to ${LABEL_MAX} characters, or null`);
    if (typeof setting.enabled !== 'boolean') throw AppError.invalid(`${field}.enabled`, 'must be true or false');
    const row: CancellationReasonRow = { publicationId, reason: setting.reason, position, label, enabled: setting.enabled, saveKind: null, saveOfferId: null, savePauseMonths: null, savePriceId: null };
    const save = setting.save;
    if (!save) return row;
    if (save.kind === 'pause') {
      if (!Number.isInteger(save.months) || save.months < 1 || save.months > PAUSE_MONTHS_MAX) throw AppError.invalid(`${field}.save.months`, `must be a whole number from 1 to ${PAUSE_MONTHS_MAX}`);
      return { ...row, saveKind: 'pause', savePauseMonths: save.months };
    }
    if (save.kind === 'discount') {
      const offer = await this.offers.findOne(publicationId, save.offerId);
      if (!offer) throw new AppError('not_found', 'No such offer.');
      if (offer.kind === 'trial') throw AppError.invalid(`${field}.save.offerId`, 'must be a discount offer (percent or amount), not a trial');
      return { ...row, saveKind: 'discount', saveOfferId: offer.id };
    }
    if (save.kind === 'plan_change') {
      const price = await this.prices.find(publicationId, save.priceId);
      if (isOneTime(price.interval)) throw AppError.invalid(`${field}.save.priceId`, 'must be a monthly or yearly price');
      return { ...row, saveKind: 'plan_change', savePriceId: price.id };
    }
    throw AppError.invalid(`${field}.save.kind`, 'must be one of discount, pause, plan_change');
  }
}

function settingOf(row: CancellationReasonRow): CancellationReasonSetting {
  const save: SaveOfferSetting | null =
    row.saveKind === 'discount'
      ? { kind: 'discount', offerId: row.saveOfferId as string }
      : row.saveKind === 'pause'
        ? { kind: 'pause', months: row.savePauseMonths as number }
        : row.saveKind === 'plan_change'
          ? { kind: 'plan_change', priceId: row.savePriceId as string }
          : null;
  return { reason: row.reason, label: row.label, enabled: row.enabled, save };
}
