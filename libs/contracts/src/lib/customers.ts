import { requestPattern } from './patterns';

/* Customer records managed by staff and publishers' servers (spec 4.7; decisions H3), owned by identity. The feature adds its patterns and types here. */

export const CustomerRequests = {} as const;

// Keeps the import used until the first pattern lands.
export type CustomerPattern = ReturnType<typeof requestPattern>;
