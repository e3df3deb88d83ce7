export * from './lib/articles';
export * from './lib/example-publisher';
export * from './lib/local-start';
