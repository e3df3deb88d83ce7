export * from './lib/access.service';
export { PaywallCatalog } from './lib/decisions/paywall-catalog';
export { AccessRetention } from './lib/retention/access-retention';
