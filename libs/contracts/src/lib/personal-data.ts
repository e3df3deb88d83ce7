import type { PurchaseView } from './billing';
import type { CustomerRecord } from './customers';
import { requestPattern } from './patterns';

/*
 * A reader's data on request (GDPR art. 15, 17, 20; docs/customers.md): everything the services
 * hold about one customer as one JSON document, and its erasure in every service. Identity owns
 * both: it asks each other service for its part over the bus, and keeps the durable record of an
 * erasure until every service has done its step.
 */

/** Whom a service looks for: the customer's id and email (each service also finds its own aliases, e.g. visitor ids). */
export interface ReaderIdentifiers {
  publicationId: string;
  customerId: string;
  /** As identity stores it: trimmed and lower-cased. */
  email: string;
}

/** An event a service recorded about the reader (its outbox), as the event stream carried it. */
export interface PersonalDataEvent {
  id: string;
  name: string;
  /** ISO 8601 UTC. */
  occurredAt: string;
  data: unknown;
}

export interface SessionRecord {
  /** A refresh-token family: one per sign-in on a device. */
  id: string;
  createdAt: string;
  revokedAt: string | null;
  /** When its newest refresh token was issued (the session's last refresh). */
  lastRefreshedAt: string | null;
  refreshTokens: number;
}

export interface EmailLogRecord {
  id: string;
  kind: string;
  toAddress: string;
  subject: string | null;
  status: string;
  createdAt: string;
  sentAt: string | null;
}

export interface IdentityPersonalData {
  customer: CustomerRecord & { language: string; emailVerifiedAt: string | null };
  sessions: SessionRecord[];
  emailLog: EmailLogRecord[];
  events: PersonalDataEvent[];
}

export interface AccessPersonalData {
  /** The site's visitor ids linked to the customer when they signed in. */
  visitorIds: Array<{ visitorId: string; linkedAt: string }>;
  visits: Array<{ readerKey: string; count: number; lastVisitAt: string }>;
  /** The metered articles read: one row per page and meter period. */
  meterViews: Array<{ paywallId: string; page: string; viewedAt: string }>;
  /** Newsletter sign-ups and data-wall submissions that opened a wall. */
  passes: Array<{ kind: 'newsletter' | 'data'; fields: string[]; passedAt: string }>;
  /** The days an organisation let the reader in (its stats count each reader once a day): the organisation and the day (ISO, its start, UTC). */
  organisationDays: Array<{ organisationId: string; day: string }>;
  events: PersonalDataEvent[];
}

export interface BillingPersonalData {
  processorCustomer: { processorCustomerId: string; email: string | null; name: string | null; updatedAt: string } | null;
  subscriptions: Array<Record<string, unknown>>;
  /** Passes and single articles bought. */
  purchases: PurchaseView[];
  checkoutSessions: Array<{ processorSessionId: string; priceId: string; createdAt: string; completedAt: string | null }>;
  /** Gifts the reader bought (signed in, or with their address) or was given (to their address, or redeemed), with what the buyer wrote. */
  gifts: Array<{ giftId: string; role: 'buyer' | 'recipient'; status: string; priceId: string; months: number; buyerName: string; buyerEmail: string; recipientName: string; recipientEmail: string; message: string | null; sendAt: string; createdAt: string }>;
  /** Organisations the reader holds a seat in (the address it was given to, how, when) or manages. */
  organisations: Array<{ organisationId: string; name: string; seat: { email: string; via: 'invitation' | 'domain'; joinedAt: string } | null; manager: boolean }>;
  /** Events the processor sent about the reader (type and time; the payloads are the processor's). */
  processorEvents: Array<{ eventId: string; type: string; receivedAt: string }>;
  events: PersonalDataEvent[];
}

export interface WebhooksOutPersonalData {
  /** What was sent about the reader to the publisher's endpoints. */
  deliveries: Array<{ id: string; webhookId: string; event: string; status: string; createdAt: string; body: unknown }>;
}

/** The whole document `GET /api/v1/customers/:id/export` and `GET /api/v1/auth/customers/me/export` answer. */
export interface PersonalDataExport {
  /** The document's format; a later change of shape changes it. */
  format: 'gatehouse.personal-data.v1';
  /** ISO 8601 UTC. */
  exportedAt: string;
  publicationId: string;
  customer: IdentityPersonalData['customer'];
  sessions: SessionRecord[];
  emailLog: EmailLogRecord[];
  subscriptions: BillingPersonalData['subscriptions'];
  purchases: BillingPersonalData['purchases'];
  checkoutSessions: BillingPersonalData['checkoutSessions'];
  gifts: BillingPersonalData['gifts'];
  organisations: BillingPersonalData['organisations'];
  processorCustomer: BillingPersonalData['processorCustomer'];
  processorEvents: BillingPersonalData['processorEvents'];
  visitorIds: AccessPersonalData['visitorIds'];
  visits: AccessPersonalData['visits'];
  meterViews: AccessPersonalData['meterViews'];
  newsletterSignups: AccessPersonalData['passes'];
  dataWallSubmissions: AccessPersonalData['passes'];
  organisationDays: AccessPersonalData['organisationDays'];
  webhookDeliveries: WebhooksOutPersonalData['deliveries'];
  /** Every event the services recorded about the reader, oldest first. */
  events: PersonalDataEvent[];
}

/** How the reader confirms their own erasure: their password, or a sign-in code emailed to them. */
export type ErasureConfirmation = { password: string } | { code: string };

/** A service's step of an erasure: `done` false when something must settle first (an event not yet sent); it is asked again. */
export interface ErasureStepResult {
  done: boolean;
}

/** The erasure steps, in the order identity runs them; identity's own comes last. */
export const ERASURE_STEPS = ['access', 'billing', 'webhooks-out', 'identity'] as const;
export type ErasureStep = (typeof ERASURE_STEPS)[number];

export const PersonalDataRequests = {
  /** 404 not_found for a customer not in the publication (or erased). */
  Export: requestPattern<{ publicationId: string; customerId: string }, PersonalDataExport>('identity.personal-data.export'),
  /**
   * Starts the erasure: at once the customer can no longer sign in and `customer.deleted` is
   * emitted; the services' steps follow, retried until done. 404 not_found for a customer not in
   * the publication (or erased already). With `confirmation` (the reader's own request): 401
   * invalid_credentials for a wrong password, 401 code_invalid for a wrong code, nothing changed.
   */
  Erase: requestPattern<{ publicationId: string; customerId: string; confirmation?: ErasureConfirmation }, { erasing: true }>('identity.personal-data.erase'),
  AccessExport: requestPattern<ReaderIdentifiers, AccessPersonalData>('access.personal-data.export'),
  /**
   * `requestedAt` (ISO 8601): when the erasure started. Visits are counted in memory and written a
   * second later, on every access replica: the step is not done until those counted before the
   * erasure have been written, and deleted.
   */
  AccessErase: requestPattern<ReaderIdentifiers & { requestedAt: string }, ErasureStepResult>('access.personal-data.erase'),
  BillingExport: requestPattern<ReaderIdentifiers, BillingPersonalData>('billing.personal-data.export'),
  BillingErase: requestPattern<ReaderIdentifiers, ErasureStepResult>('billing.personal-data.erase'),
  WebhooksOutExport: requestPattern<ReaderIdentifiers, WebhooksOutPersonalData>('webhooks-out.personal-data.export'),
  /**
   * `deletedEventId`: the `customer.deleted` event, which must have been delivered (or given up)
   * before its body is blanked; `requestedAt` (ISO 8601) tells when the stream can no longer bring it.
   */
  WebhooksOutErase: requestPattern<ReaderIdentifiers & { deletedEventId: string; requestedAt: string }, ErasureStepResult>('webhooks-out.personal-data.erase'),
} as const;
