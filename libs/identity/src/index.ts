export * from './lib/identity.service';
