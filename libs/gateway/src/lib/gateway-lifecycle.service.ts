import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { BUS_OPTIONS, EVENT_TRANSPORT, type BusOptions, type EventTransport } from '@gatehouse/bus';
import { RedisWindowStorage } from './edge/rate-limit.storage';

/** Closes what the gateway opened itself: its event connection and its counters' store. */
@Injectable()
export class GatewayLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(BUS_OPTIONS) private readonly bus: BusOptions,
    @Inject(EVENT_TRANSPORT) private readonly events: EventTransport,
    @InjectThrottlerStorage() private readonly counters: ThrottlerStorage,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // The in-process transport belongs to the hub every service of the process shares.
    if (this.bus.transport.kind === 'nats') await this.events.close();
    if (this.counters instanceof RedisWindowStorage) await this.counters.close();
  }
}
