import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ACCESS_TOKEN_TTL_SECONDS, InternalEvents, type DataOf } from '@gatehouse/contracts';
import { EVENT_TRANSPORT, type EventSubscription, type EventTransport } from '@gatehouse/bus';

/**
 * How long a deletion is remembered: every access token the customer held has expired by then.
 * The extra minute covers the clocks of identity and the gateway disagreeing slightly.
 */
const REMEMBER_MS = (ACCESS_TOKEN_TTL_SECONDS + 60) * 1000;

/**
 * Customers deleted lately, as this gateway replica heard of them: their access tokens are still
 * signed and unexpired, so the edge refuses them by id. Deletions anywhere reach every replica
 * through the `internal.customer.deleted` broadcast. Never capped: forgetting a deletion early
 * would let its tokens back in.
 */
@Injectable()
export class DeletedCustomers implements OnModuleInit, OnModuleDestroy {
  /** Customer id → when to forget it; insertion order is expiry order. */
  private readonly forgetAt = new Map<string, number>();
  private subscription?: EventSubscription;

  constructor(private readonly moduleRef: ModuleRef) {}

  async onModuleInit(): Promise<void> {
    // The gateway's one event connection is provided by GatewayModule, which imports this module.
    const events = this.moduleRef.get<EventTransport>(EVENT_TRANSPORT, { strict: false });
    this.subscription = await events.listen([InternalEvents.CustomerDeleted.name], async (event) => {
      this.add((event.data as DataOf<typeof InternalEvents.CustomerDeleted>).customerId);
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
  }

  add(customerId: string): void {
    const now = Date.now();
    this.forgetExpired(now);
    this.forgetAt.delete(customerId);
    this.forgetAt.set(customerId, now + REMEMBER_MS);
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
