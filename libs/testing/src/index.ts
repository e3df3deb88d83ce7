export * from './lib/infrastructure';
