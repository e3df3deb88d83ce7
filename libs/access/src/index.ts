export * from './lib/access.service';
export { PaywallCatalog } from './lib/decisions/paywall-catalog';
export { AccessCheckHandler } from './lib/decisions/access-check.handler';
export { AccessDecisionService } from './lib/decisions/access-decision.service';
export { AccessRetention } from './lib/retention/access-retention';
