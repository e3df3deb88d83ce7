import { requestPattern } from './patterns';

/* Outbound webhooks: registrations and deliveries (spec 2.8, 4.6; decisions G1-G4). The feature adds its patterns and types here. */

export const WebhooksOutRequests = {} as const;

// Keeps the import used until the first pattern lands.
export type WebhooksOutPattern = ReturnType<typeof requestPattern>;
