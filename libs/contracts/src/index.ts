export * from './lib/patterns';
export * from './lib/pagination';
export * from './lib/services';
export * from './lib/problems';
export * from './lib/events';
export * from './lib/identity';
export * from './lib/admin';
export * from './lib/access';
export * from './lib/billing';
export * from './lib/offers';
export * from './lib/webhooks-out';
export * from './lib/branding';
export * from './lib/customers';
export * from './lib/stats';
export * from './lib/account-email';
export * from './lib/page-paths';
// Generated from the gateway's OpenAPI document (npm run generate:api-types): the typed client's paths.
export type { paths as GatewayApiPaths, components as GatewayApiComponents } from './lib/gateway-api';
export * from './lib/personal-data';
