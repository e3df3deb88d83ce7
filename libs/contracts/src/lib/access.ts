import { requestPattern } from './patterns';

/* Access: paywalls, segments, experiments, access decisions and event intake (spec 2.4, 4.2; decisions E, H2, H4). The feature adds its patterns and types here. */

export const AccessRequests = {} as const;

// Keeps the import used until the first pattern lands.
export type AccessPattern = ReturnType<typeof requestPattern>;
