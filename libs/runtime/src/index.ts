export * from './lib/service-host';
export * from './lib/http-host';
export * from './lib/operations.module';
export * from './lib/operations.controller';
export * from './lib/wait-for';
