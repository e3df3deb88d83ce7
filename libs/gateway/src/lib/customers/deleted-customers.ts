import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ACCESS_TOKEN_TTL_SECONDS, IdentityRequests, InternalEvents, type DataOf } from '@gatehouse/contracts';
import { BusClient, EVENT_TRANSPORT, type EventSubscription, type EventTransport } from '@gatehouse/bus';

/**
 * How long a deletion is remembered: every access token the customer held has expired by then.
 * The extra minute covers the clocks of identity and the gateway disagreeing slightly.
 */
const REMEMBER_MS = (ACCESS_TOKEN_TTL_SECONDS + 60) * 1000;

/**
 * Customers deleted lately: their access tokens are still signed and unexpired, so the edge
 * refuses them by id. Deletions anywhere reach every running replica through the
 * `internal.customer.deleted` broadcast; a replica that starts asks identity for the deletions of
 * the last 16 minutes. Never capped: forgetting a deletion early would let its tokens back in.
 */
@Injectable()
export class DeletedCustomers implements OnModuleInit, OnModuleDestroy {
  /** Customer id → when to forget it; insertion order is expiry order. */
  private readonly forgetAt = new Map<string, number>();
  private subscription?: EventSubscription;
  private stopped = false;
  private readonly logger = new Logger(DeletedCustomers.name);

  constructor(private readonly moduleRef: ModuleRef) {}

  async onModuleInit(): Promise<void> {
    // The gateway's one event connection is provided by GatewayModule, which imports this module.
    const events = this.moduleRef.get<EventTransport>(EVENT_TRANSPORT, { strict: false });
    this.subscription = await events.listen([InternalEvents.CustomerDeleted.name], async (event) => {
      this.add((event.data as DataOf<typeof InternalEvents.CustomerDeleted>).customerId);
    });
    // The broadcast reaches only running replicas: one that starts (or restarts) learns the
    // deletions of the last 16 minutes from identity, asking again until identity answers.
    void this.learnRecentDeletions(this.moduleRef.get(BusClient, { strict: false }));
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
  }

  /** Remembers a deletion for REMEMBER_MS from when it happened (now, when heard of live). */
  add(customerId: string, deletedAt = Date.now()): void {
    const until = deletedAt + REMEMBER_MS;
    this.forgetExpired(Date.now());
    if (until <= Date.now() || (this.forgetAt.get(customerId) ?? 0) >= until) return;
    this.forgetAt.delete(customerId);
    this.forgetAt.set(customerId, until);
  }

  private async learnRecentDeletions(bus: BusClient): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        const since = new Date(Date.now() - REMEMBER_MS).toISOString();
        const { customers } = await bus.request(IdentityRequests.RecentlyDeleted, { since });
        for (const { customerId, deletedAt } of customers) this.add(customerId, Date.parse(deletedAt));
        return;
      } catch (err) {
        this.logger.warn(`Recent customer deletions not learned yet (${err instanceof Error ? err.message : String(err)}); asking again.`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(1_000 * 2 ** attempt, 10_000)).unref());
      }
    }
  }

  has(customerId: string): boolean {
    return (this.forgetAt.get(customerId) ?? 0) > Date.now();
  }

  private forgetExpired(now: number): void {
    for (const [customerId, until] of this.forgetAt) {
      if (until > now) return;
      this.forgetAt.delete(customerId);
    }
  }
}
