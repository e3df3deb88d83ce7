export * from './lib/browser';
export * from './lib/infrastructure';
