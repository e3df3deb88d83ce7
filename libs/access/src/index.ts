export * from './lib/access.module';
export { AccessCheckHandler } from './lib/decisions/access-check.handler';
export { AccessDecisionService } from './lib/decisions/access-decision.service';
export { AccessRetention } from './lib/retention/access-retention.service';
