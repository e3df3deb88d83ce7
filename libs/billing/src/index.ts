export * from './lib/billing.module';
export { ManualGrantExpiry } from './lib/subscriptions/manual-grant-expiry';
