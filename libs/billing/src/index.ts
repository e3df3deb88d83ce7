export * from './lib/billing.service';
