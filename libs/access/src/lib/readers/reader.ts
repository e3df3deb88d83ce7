/** The visitor of a check or an event: a customer (verified JWT), a visitor id of the site (`userId`), both, or neither. */
export interface Reader {
  publicationId: string;
  customerId: string | null;
  visitorId: string | null;
  /** The key the reader's own records (meter views, passes, visits) are stored under; null without identity. */
  key: string | null;
  /** Every key whose records count as the reader's: its own and, for a customer, the visitors linked to it. */
  keys: string[];
}

/** A verified customer is the visitor (decisions E2); the site's visitor id stands in otherwise. */
export function readerKey(customerId: string | null, visitorId: string | null): string | null {
  if (customerId) return customerKey(customerId);
  return visitorId ? visitorKey(visitorId) : null;
}

export const customerKey = (customerId: string): string => `c:${customerId}`;
export const visitorKey = (visitorId: string): string => `v:${visitorId}`;

/** A reader whose records are only its own (no links looked up). */
export function readerOf(publicationId: string, customerId: string | null, visitorId: string | null): Reader {
  const key = readerKey(customerId, visitorId);
  return { publicationId, customerId, visitorId, key, keys: key ? [key] : [] };
}
