import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ACCESS_TOKEN_TTL_SECONDS, IdentityRequests, InternalEvents } from '@gatehouse/contracts';
import { BusClient, on, ReadModels, type ReadModel } from '@gatehouse/bus';

/**
 * How long a deletion is remembered: every access token the customer held has expired by then.
 * The extra minute covers the clocks of identity and the gateway disagreeing slightly.
 */
const REMEMBER_MS = (ACCESS_TOKEN_TTL_SECONDS + 60) * 1000;

/**
 * Customers deleted lately: their access tokens are still signed and unexpired, so the edge
 * refuses them by id. Deletions anywhere reach every running replica as a change notice; a replica
 * that starts asks identity for the deletions of the last 16 minutes. Bounded by age only:
 * forgetting a deletion early would let its tokens back in.
 */
@Injectable()
export class DeletedCustomers implements OnModuleInit, OnModuleDestroy {
  private readonly deleted: ReadModel<string, true>;
  private stopped = false;
  private readonly logger = new Logger(DeletedCustomers.name);

  constructor(
    private readonly bus: BusClient,
    readModels: ReadModels,
  ) {
    this.deleted = readModels.define({
      name: 'deleted-customers',
      freshMs: REMEMBER_MS,
      changedBy: [on(InternalEvents.CustomerDeleted, (event, model) => model.set(event.data.customerId, true))],
    });
  }

  onModuleInit(): void {
    // The notice reaches only running replicas: one that starts (or restarts) learns the
    // deletions of the last 16 minutes from identity, asking again until identity answers.
    void this.learnRecentDeletions();
  }

  onModuleDestroy(): void {
    this.stopped = true;
  }

  has(customerId: string): boolean {
    return this.deleted.peek(customerId) === true;
  }

  /** Remembers a deletion for REMEMBER_MS from when it happened. */
  private remember(customerId: string, deletedAt: number): void {
    const left = deletedAt + REMEMBER_MS - Date.now();
    if (left > 0 && !this.has(customerId)) this.deleted.set(customerId, true, left);
  }

  private async learnRecentDeletions(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        const since = new Date(Date.now() - REMEMBER_MS).toISOString();
        const { customers } = await this.bus.request(IdentityRequests.RecentlyDeleted, { since });
        for (const { customerId, deletedAt } of customers) this.remember(customerId, Date.parse(deletedAt));
        return;
      } catch (err) {
        this.logger.warn(`Recent customer deletions not learned yet (${err instanceof Error ? err.message : String(err)}); asking again.`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(1_000 * 2 ** attempt, 10_000)).unref());
      }
    }
  }
}
