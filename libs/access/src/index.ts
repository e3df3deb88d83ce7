export * from './lib/access.service';
export { AccessRetention } from './lib/retention/access-retention';
