// A separate entry point (`@gatehouse/contracts/csv`): the dashboard imports only types from
// contracts' index, and this at run time.
export * from './lib/csv';
