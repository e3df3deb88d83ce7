export { EVENT_TRANSPORT, type EventHandler, type EventSubscription, type EventTransport } from './event-transport';
export { deleteEventStream, JetStreamEventTransport } from './jetstream.transport';
export { InProcessEventTransport } from './in-process.transport';
export { Outbox, outboxChannel } from './outbox';
export { OutboxRelay } from './outbox-relay';
export { EventConsumers, type EventConsumer } from './event-consumers';
export { EventsModule, createEventTransport } from './events.module';
export { CreateBusTables1763700000000 } from './bus-tables.migration';
export { EventRetention, EVENT_RETENTION_MS } from './event-retention';
