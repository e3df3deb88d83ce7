export * from './lib/data-source';
export * from './lib/database.module';
export * from './lib/embedded-postgres';
export * from './lib/keyset-page';
export * from './lib/periodic-sweep';
export * from './lib/retention';
export * from './lib/attempt-throttle';
