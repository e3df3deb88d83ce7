import { Module, type DynamicModule } from '@nestjs/common';
import { BUS_OPTIONS, type BusOptions } from '../bus-options';
import { EventConsumers } from './event-consumers.service';
import { EventRetention } from './event-retention.service';
import { EventsLifecycle } from './events-lifecycle.service';
import { EVENT_TRANSPORT, type EventTransport } from './event-transport';
import { JetStreamEventTransport } from './jetstream.transport';
import { Outbox } from './outbox.service';
import { OutboxRelay } from './outbox-relay.service';
import { ReadModels } from '../read-models/read-models.service';

export function createEventTransport(options: BusOptions): Promise<EventTransport> | EventTransport {
  return options.transport.kind === 'nats'
    ? JetStreamEventTransport.connect(options.transport, options.namespace, options.stream)
    : options.transport.hub.events;
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
