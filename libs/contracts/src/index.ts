export * from './lib/patterns';
export * from './lib/services';
export * from './lib/problems';
export * from './lib/events';
export * from './lib/identity';
export * from './lib/admin';
