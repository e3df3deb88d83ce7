// The access decision, shared by the access service and the gateway (issue 29): pure functions of
// the rules, the check and what its sources answer. No state, no I/O of its own.
export * from './lib/access-decision';
export * from './lib/known-crawlers';
export * from './lib/organisation-networks';
export * from './lib/page-url';
export * from './lib/path-glob';
export * from './lib/publication-rules';
export * from './lib/segment-conditions';
export * from './lib/subscription-rules';
export * from './lib/variant-assignment';
