import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { BillingRequests, InternalEvents, type CustomerEntitlement, type EntitlementsChangedData } from '@gatehouse/contracts';
import { BusClient, EVENT_TRANSPORT, type EventSubscription, type EventTransport } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import { AccessConfig } from '../access.config';
import { EntitlementsCache } from './entitlements-cache';
import { isSubscriber, isSubscriberFor } from './subscription-rules';

const FRESH_MS = 60_000;
const RETRY_MS = 5_000;
const MAX_ENTRIES = 50_000;

const keyOf = (publicationId: string, customerId: string) => `${publicationId}:${customerId}`;

/**
 * Who is a subscriber (decisions E6), from billing's entitlements, cached on this replica. Billing
 * announces every change with `internal.entitlements.changed`, which every replica hears and
 * drops the customer's entry for; the freshness limit is the safety net behind it.
 */
@Injectable()
export class SubscribersService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SubscribersService.name);
  private readonly cache: EntitlementsCache;
  private subscription?: EventSubscription;

  constructor(
    private readonly bus: BusClient,
    @Inject(EVENT_TRANSPORT) private readonly events: EventTransport,
    private readonly clock: Clock,
    private readonly config: AccessConfig,
  ) {
    this.cache = new EntitlementsCache(clock, {
      freshMs: FRESH_MS,
      retryMs: RETRY_MS,
      maxEntries: MAX_ENTRIES,
      onFailure: (key, error, usedStale) =>
        this.logger.warn(
          `Billing did not give the entitlements of ${key} (${error instanceof Error ? error.message : String(error)}); ` +
            (usedStale ? 'using the last known ones.' : 'deciding as for a non-subscriber.'),
        ),
    });
  }

  async onModuleInit(): Promise<void> {
    this.subscription = await this.events.listen([InternalEvents.EntitlementsChanged.name], async (envelope) => {
      if (envelope.publicationId) this.cache.drop(keyOf(envelope.publicationId, (envelope.data as EntitlementsChangedData).customerId));
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
  }

  async isSubscriberFor(publicationId: string, customerId: string, paywallId: string): Promise<boolean> {
    return isSubscriberFor(await this.entitlementsOf(publicationId, customerId), paywallId, this.clock.now(), this.config.PAST_DUE_GRACE_DAYS);
  }

  async isSubscriber(publicationId: string, customerId: string): Promise<boolean> {
    return isSubscriber(await this.entitlementsOf(publicationId, customerId), this.clock.now(), this.config.PAST_DUE_GRACE_DAYS);
  }

  private entitlementsOf(publicationId: string, customerId: string): Promise<CustomerEntitlement[]> {
    return this.cache.get(keyOf(publicationId, customerId), async () => {
      const { entitlements } = await this.bus.request(BillingRequests.GetEntitlements, { publicationId, customerId }, this.config.ENTITLEMENTS_TIMEOUT_MS);
      return entitlements;
    });
  }
}
