import { requestPattern } from './patterns';

/*
 * Outbound webhooks: registrations and their delivery log (spec 2.8, 4.6; decisions G1-G4).
 * Every request acts inside one publication: an id of another publication is not found.
 */

/**
 * The event `POST /api/v1/admin/webhooks/:id/test` sends to one registration. It is not an event
 * of spec 6.2: no registration subscribes to it, and it is never sent otherwise.
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export interface WebhookTestEventData {
  webhookId: string;
  message: string;
}

/** `pending` covers an attempt scheduled or in flight; `failed` an attempt without a 2xx answer. */
export type DeliveryAttemptStatus = 'pending' | 'succeeded' | 'failed';

/** One attempt of a delivery, as the delivery log shows it (decisions G1). */
export interface DeliveryAttemptView {
  /** The delivery's id: `X-Service-Delivery` and `webhook-id`, the same on every attempt. */
  id: string;
  event: string;
  /** 1 for the first attempt of the delivery; a redelivery continues the count. */
  attempt: number;
  status: DeliveryAttemptStatus;
  responseCode: number | null;
  /** The first 2 KiB of the response body. */
  responseBody: string | null;
  durationMs: number | null;
  /** Why an attempt got no answer (timeout, refused target, connection error); null otherwise. */
  error: string | null;
  /** When the attempt was scheduled. */
  createdAt: string;
  /** When it is (or was) due. */
  dueAt: string;
  /** When it was made; null while it is still to come. */
  attemptedAt: string | null;
}

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  createdAt: string;
}

export interface WebhookWithDeliveries extends WebhookView {
  /** The last 20 attempts, newest first. */
  deliveries: DeliveryAttemptView[];
}

/** Returned once, at creation: the signing secret is never shown again. */
export interface CreatedWebhook extends WebhookView {
  /** `whsec_` + 32 random bytes, base64. */
  secret: string;
}

interface InPublication {
  publicationId: string;
}

interface OfWebhook extends InPublication {
  webhookId: string;
}

export interface CreateWebhookRequest extends InPublication {
  url: string;
  events: string[];
  description?: string | null;
}

export interface UpdateWebhookRequest extends OfWebhook {
  url?: string;
  events?: string[];
  description?: string | null;
}

export const WebhooksOutRequests = {
  ListWebhooks: requestPattern<InPublication, { webhooks: WebhookWithDeliveries[] }>('webhooks-out.webhooks.list'),
  /** 400 validation_failed on `url` for a refused target (decisions G2); 409 conflict past the per-publication limit. */
  CreateWebhook: requestPattern<CreateWebhookRequest, CreatedWebhook>('webhooks-out.webhooks.create'),
  /** The secret is kept. 404 not_found for an unknown id. */
  UpdateWebhook: requestPattern<UpdateWebhookRequest, WebhookView>('webhooks-out.webhooks.update'),
  /** Removes the registration with its deliveries: nothing more is sent, pending retries included. */
  DeleteWebhook: requestPattern<OfWebhook, { deleted: true }>('webhooks-out.webhooks.delete'),
  /** A new series of attempts for one delivery; 409 conflict while the delivery is still pending. */
  RedeliverDelivery: requestPattern<OfWebhook & { deliveryId: string }, DeliveryAttemptView>('webhooks-out.deliveries.redeliver'),
  /** Sends a `webhook.test` event to this registration only. */
  SendTestEvent: requestPattern<OfWebhook, DeliveryAttemptView>('webhooks-out.webhooks.send-test'),
} as const;
