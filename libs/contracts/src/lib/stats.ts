import { requestPattern } from './patterns';

/* The stats view (decisions H5), composed by admin from the owners' rollups. The feature adds its patterns and types here. */

export const StatsRequests = {} as const;

// Keeps the import used until the first pattern lands.
export type StatsPattern = ReturnType<typeof requestPattern>;
