export * from './lib/gatehouse-client';
export * from './lib/errors';
export * from './lib/webhook-verification';
export type { TransportOptions } from './lib/http';
export type { VerifiedCustomer } from './lib/customer-tokens';
export type { RequestHeaders } from './lib/request-headers';
export * from './lib/enforcement/paywall-enforcer';
export * from './lib/enforcement/adapters';
export { PAID_CLASS } from './lib/enforcement/paid-regions';
