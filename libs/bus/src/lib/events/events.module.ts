import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { BUS_OPTIONS, type BusOptions } from '../bus-options';
import { EventConsumers } from './event-consumers';
import { EventRetention } from './event-retention';
import { EVENT_TRANSPORT, type EventTransport } from './event-transport';
import { JetStreamEventTransport } from './jetstream.transport';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';
import { ReadModels } from '../read-models/read-models';

export function createEventTransport(options: BusOptions): Promise<EventTransport> | EventTransport {
  return options.transport.kind === 'nats'
    ? JetStreamEventTransport.connect(options.transport, options.namespace, options.stream)
    : options.transport.hub.events;
}

/** Starts the relay once the service is up; on shutdown stops the consumers and the relay before closing the bus they use. */
@Injectable()
class EventsLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
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

/**
 * Domain events for one service: the outbox and its relay, effectively-once consumers, and the
 * service's read models (ReadModels). Needs
 * `DataSource` (a migrated service schema, CreateBusTables1763700000000 included) and BUS_OPTIONS.
 */
@Module({})
export class EventsModule {
  static forRoot(): DynamicModule {
    return {
      module: EventsModule,
      global: true,
      providers: [
        { provide: EVENT_TRANSPORT, inject: [BUS_OPTIONS], useFactory: createEventTransport },
        Outbox,
        OutboxRelay,
        EventConsumers,
        EventRetention,
        EventsLifecycle,
        ReadModels,
      ],
      exports: [EVENT_TRANSPORT, Outbox, OutboxRelay, EventConsumers, EventRetention, ReadModels],
    };
  }
}
