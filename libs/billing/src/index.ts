export * from './lib/billing.service';
export { ManualGrantExpiry } from './lib/subscriptions/manual-grant-expiry';
