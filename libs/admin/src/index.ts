export * from './lib/admin.config';
export * from './lib/admin.module';
