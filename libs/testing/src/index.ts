export * from './lib/infrastructure';
export * from './lib/system';
