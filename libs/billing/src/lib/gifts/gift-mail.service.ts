import { Injectable } from '@nestjs/common';
import { AdminRequests, GIFT_REMINDER_DAYS, GiftEmailRequests, type GiftEmailValues } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { inBatches, PeriodicSweep } from '@gatehouse/db';
import { Clock, SecretBox } from '@gatehouse/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { Product } from '../catalog/product.entity';
import { derivedUuid } from '../shared/derived-id';
import { homePageOf } from '../shared/home-page';
import { Subscription } from '../subscriptions/subscription.entity';
import { Gift } from './gift.entity';

const SWEEP_INTERVAL_MS = 60_000;
const BATCH_SIZE = 100;
const DAY_MS = 86_400_000;

/**
 * A gift's two emails, sent through identity's durable queue: the gift to its recipient once its
 * send date has come (at once when the payment arrives after it), and the reminder to the reader
 * GIFT_REMINDER_DAYS before the subscription it made ends. Each is asked of identity in the
 * transaction that records it, with an id derived from the gift, so a retry queues nothing twice;
 * replicas share the sweep through SKIP LOCKED.
 */
@Injectable()
export class GiftMail extends PeriodicSweep {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly bus: BusClient,
    private readonly box: SecretBox,
  ) {
    super(SWEEP_INTERVAL_MS, 'Sending gift email');
  }

  /** Sends every gift and reminder due by now; resolves with how many. */
  sweep(): Promise<number> {
    return inBatches(this.dataSource, BATCH_SIZE, async (manager) => {
      const now = this.clock.now();
      const gifts = await manager
        .createQueryBuilder(Gift, 'gift')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where("gift.status = 'purchased' AND gift.emailed_at IS NULL AND gift.send_at <= :now", { now })
        .limit(BATCH_SIZE)
        .getMany();
      for (const gift of gifts) await this.sendGift(manager, gift);
      const ending = await manager
        .createQueryBuilder(Gift, 'gift')
        .innerJoin(Subscription, 'subscription', 'subscription.id = gift.subscription_id')
        .setLock('pessimistic_write', undefined, ['gift'])
        .setOnLocked('skip_locked')
        .where("gift.status = 'redeemed' AND gift.reminded_at IS NULL AND subscription.status <> 'cancelled'")
        .andWhere('subscription.current_period_end <= :soon', { soon: new Date(now.getTime() + GIFT_REMINDER_DAYS * DAY_MS) })
        .limit(BATCH_SIZE)
        .getMany();
      for (const gift of ending) await this.remind(manager, gift);
      return gifts.length + ending.length;
    });
  }

  /** The gift to its recipient, its code unsealed once and then forgotten here; the caller holds the gift locked. */
  async sendGift(manager: EntityManager, gift: Gift): Promise<void> {
    const values: GiftEmailValues = { ...(await this.about(manager, gift)), sender: gift.buyerName, ...(gift.message ? { message: gift.message } : {}) };
    await this.bus.request(GiftEmailRequests.SendGift, {
      publicationId: gift.publicationId,
      emailId: derivedUuid(`gift:${gift.id}:received`),
      to: gift.recipientEmail,
      recipientName: gift.recipientName,
      code: this.box.decrypt(gift.codeSealed as string),
      redeemUrl: gift.redeemUrl,
      values,
    });
    await manager.update(Gift, { id: gift.id }, { emailedAt: this.clock.now(), codeSealed: null });
  }

  private async remind(manager: EntityManager, gift: Gift): Promise<void> {
    const subscription = await manager.findOneByOrFail(Subscription, { id: gift.subscriptionId as string });
    const end = subscription.currentPeriodEnd as Date;
    const link = gift.redeemUrl ?? homePageOf(await this.bus.request(AdminRequests.GetPublication, { publicationId: gift.publicationId }));
    await this.bus.request(GiftEmailRequests.SendGiftReminder, {
      publicationId: gift.publicationId,
      emailId: derivedUuid(`gift:${gift.id}:ending`),
      customerId: subscription.customerId,
      link,
      values: { ...(await this.about(manager, gift)), date: end.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }) },
    });
    await manager.update(Gift, { id: gift.id }, { remindedAt: this.clock.now() });
  }

  private async about(manager: EntityManager, gift: Gift): Promise<{ product: string; months: string }> {
    const price = await manager.findOneByOrFail(Price, { id: gift.priceId });
    const product = await manager.findOneByOrFail(Product, { id: price.productId });
    return { product: product.name, months: String(gift.months) };
  }
}
