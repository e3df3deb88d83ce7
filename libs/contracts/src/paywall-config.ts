// A separate entry point (`@gatehouse/contracts/paywall-config`): the schemas need zod at run
// time, which the browser packages that import contracts' index must not carry.
export * from './lib/paywall-config.schema';
