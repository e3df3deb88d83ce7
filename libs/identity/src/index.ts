export * from './lib/identity.module';
