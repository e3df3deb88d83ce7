export * from './lib/bus-options';
export * from './lib/bus.module';
export * from './lib/requests/bus-client';
export * from './lib/requests/handles.decorator';
export * from './lib/requests/in-process.transport';
export * from './lib/requests/nats.transport';
export * from './lib/events';
export * from './lib/scheduling/due-work-scheduler';
