import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { BUS_OPTIONS, type BusOptions } from '../bus-options';
import { EventConsumers } from './event-consumers.service';
import { EVENT_TRANSPORT, type EventTransport } from './event-transport';
import { OutboxRelay } from './outbox-relay.service';

/** Starts the relay once the service is up; on shutdown stops the consumers and the relay before closing the bus they use. */
@Injectable()
export class EventsLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(BUS_OPTIONS) private readonly options: BusOptions,
    @Inject(EVENT_TRANSPORT) private readonly transport: EventTransport,
    private readonly relay: OutboxRelay,
    private readonly consumers: EventConsumers,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumers.stopAll();
    await this.relay.stop();
    // The in-process transport belongs to the hub that all services of the process share.
    if (this.options.transport.kind === 'nats') await this.transport.close();
  }
}
