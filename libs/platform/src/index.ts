export * from './lib/problem';
export * from './lib/errors.filter';
export * from './lib/logging';
export * from './lib/config';
export * from './lib/validation';
export * from './lib/main';
export * from './lib/clock';
export * from './lib/secrets';
