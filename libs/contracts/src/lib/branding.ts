import { requestPattern } from './patterns';

/* Branding configuration per publication (spec 2.7, 4.4; decisions G2. Branding). The feature adds its patterns and types here. */

export const BrandingRequests = {} as const;

// Keeps the import used until the first pattern lands.
export type BrandingPattern = ReturnType<typeof requestPattern>;
