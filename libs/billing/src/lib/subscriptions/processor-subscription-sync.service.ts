import { Injectable } from '@nestjs/common';
import { Clock, isUuid } from '@gatehouse/platform';
import type { EntityManager } from 'typeorm';
import { Price } from '../catalog/price.entity';
import { redeemedOffer } from '../offers/redeemed-offer';
import { ProcessorCustomersService } from '../processor/processor-customers.service';
import { newProcessorSubscription } from './new-subscription';
import type { ProcessorSnapshot } from './processor-snapshot';
import { SubscriptionWriter } from './subscription-writer.service';
import { Subscription } from './subscription.entity';

export interface SyncResult {
  outcome: string;
  subscription: Subscription | null;
}

/** Brings a local subscription in line with the processor's state of it. */
@Injectable()
export class ProcessorSubscriptionSync {
  constructor(
    private readonly writer: SubscriptionWriter,
    private readonly processorCustomers: ProcessorCustomersService,
    private readonly clock: Clock,
  ) {}

  /** The subscription mirroring a processor subscription, locked for the rest of the caller's transaction. */
  locked(manager: EntityManager, publicationId: string, processorSubscriptionId: string): Promise<Subscription | null> {
    return manager.findOne(Subscription, { where: { publicationId, processorSubscriptionId }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * Applies the processor's state as of `stateAt` (never older than what is held: the caller
   * checked). A subscription not seen before is stored for the customer named in its metadata
   * (or the customer's processor account), at the price it is for.
   */
  async apply(manager: EntityManager, publicationId: string, snapshot: ProcessorSnapshot, stateAt: Date, customerHint?: string): Promise<SyncResult> {
    const result = await this.applyToSubscription(manager, publicationId, snapshot, stateAt, customerHint);
    // The portal needs the customer's processor account, which a subscription started at the processor names.
    if (result.subscription) await this.processorCustomers.learn(manager, publicationId, result.subscription.customerId, snapshot.processorCustomerId);
    return result;
  }

  private async applyToSubscription(manager: EntityManager, publicationId: string, snapshot: ProcessorSnapshot, stateAt: Date, customerHint?: string): Promise<SyncResult> {
    const existing = await this.locked(manager, publicationId, snapshot.processorSubscriptionId);
    if (existing) return this.update(manager, existing, snapshot, stateAt);
    if (!snapshot.status) return { outcome: 'ignored: not a subscription yet (incomplete)', subscription: null };
    const customerId = await this.customerOf(manager, publicationId, snapshot, customerHint);
    if (!customerId) return { outcome: 'ignored: no customer of this publication', subscription: null };
    const priceId = await this.priceOf(manager, publicationId, snapshot);
    if (!priceId) return { outcome: 'ignored: a price this publication does not sell', subscription: null };
    const subscription = newProcessorSubscription(
      { publicationId, customerId, priceId, now: this.clock.now() },
      { ...snapshot, status: snapshot.status },
      stateAt,
      await redeemedOffer(manager, publicationId, snapshot.metadata),
    );
    if (await this.writer.insert(manager, subscription)) return { outcome: 'applied', subscription };
    // Stored meanwhile by a concurrent delivery: apply to that one.
    const raced = await this.locked(manager, publicationId, snapshot.processorSubscriptionId);
    return raced ? this.update(manager, raced, snapshot, stateAt) : { outcome: 'ignored: conflicting subscription', subscription: null };
  }

  private async update(manager: EntityManager, subscription: Subscription, snapshot: ProcessorSnapshot, stateAt: Date): Promise<SyncResult> {
    const priceId = (await this.priceOf(manager, subscription.publicationId, snapshot)) ?? subscription.priceId;
    // A change recorded for the period end is done once the processor bills the new price, and moot once the subscription ends.
    const scheduleDone = priceId === subscription.scheduledPriceId || snapshot.status === 'cancelled';
    await this.writer.change(manager, subscription, {
      ...(scheduleDone ? { scheduledPriceId: null } : {}),
      pausedUntil: snapshot.status === 'cancelled' ? null : snapshot.pausedUntil,
      ...(snapshot.status ? { status: snapshot.status } : {}),
      priceId,
      currentPeriodStart: snapshot.currentPeriodStart,
      currentPeriodEnd: snapshot.currentPeriodEnd,
      cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
      trialStart: snapshot.trialStart,
      trialEnd: snapshot.trialEnd,
      cancellationReason: snapshot.cancellationReason,
      processorStateAt: stateAt,
    });
    return { outcome: 'applied', subscription };
  }

  private async customerOf(manager: EntityManager, publicationId: string, snapshot: ProcessorSnapshot, hint?: string): Promise<string | null> {
    const named = hint ?? snapshot.metadata['customerId'];
    if (isUuid(named)) return named;
    const account = await this.processorCustomers.findByProcessorId(manager, publicationId, snapshot.processorCustomerId);
    return account?.customerId ?? null;
  }

  private async priceOf(manager: EntityManager, publicationId: string, snapshot: ProcessorSnapshot): Promise<string | null> {
    if (snapshot.processorPriceId) {
      const price = await manager.findOneBy(Price, { publicationId, processorPriceId: snapshot.processorPriceId });
      if (price) return price.id;
    }
    const named = snapshot.metadata['priceId'];
    const price = isUuid(named) ? await manager.findOneBy(Price, { publicationId, id: named }) : null;
    return price?.id ?? null;
  }
}
