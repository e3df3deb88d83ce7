import { Events, type DataOf, type EventType } from '@gatehouse/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors';
import { headerReader, type RequestHeaders } from './request-headers';

/** One outbound webhook delivery (spec 6.2), verified. */
export interface WebhookEvent<T = unknown> {
  /** The dotted event name, e.g. `subscription.created`. */
  event: string;
  data: T;
  /** When the event happened, ISO 8601 UTC. */
  timestamp: string;
  /** `webhook-id` / `X-Service-Delivery`: the same on every attempt, so a receiver can drop repeats. */
  deliveryId: string;
}

export interface VerifyWebhookParams {
  /** The raw body exactly as received: parse it only after verification. */
  body: string | Buffer;
  /** The request headers (any case), as Node, Express, Fastify or a fetch `Headers` give them. */
  headers: RequestHeaders;
  /** The webhook's signing secret (`whsec_…`), shown once at its creation. */
  secret: string;
  /** How far `webhook-timestamp` may be from now. Default 300 s. */
  toleranceSeconds?: number;
  now?: Date;
}

const SECRET_PREFIX = 'whsec_';

/**
 * Checks a delivery as docs/webhooks.md describes: `X-Service-Signature` (HMAC-SHA256 of the body
 * under the secret) and the Standard Webhooks `webhook-signature` over `id.timestamp.body` (under
 * the secret's bytes), whose timestamp must be within the tolerance so a captured delivery cannot be
 * replayed later. Throws WebhookVerificationError; returns the event.
 */
export function verifyWebhook<T = unknown>(params: VerifyWebhookParams): WebhookEvent<T> {
  const header = headerReader(params.headers);
  const body = typeof params.body === 'string' ? params.body : params.body.toString('utf8');
  if (!params.secret.startsWith(SECRET_PREFIX)) throw new WebhookVerificationError('The secret is not a webhook signing secret (whsec_…).');

  const serviceSignature = `sha256=${createHmac('sha256', params.secret).update(body).digest('hex')}`;
  if (!sameText(header('x-service-signature'), serviceSignature)) throw new WebhookVerificationError('X-Service-Signature does not match the body.');

  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  if (!id || !timestamp || !/^\d+$/.test(timestamp)) throw new WebhookVerificationError('The webhook-id or webhook-timestamp header is missing.');
  const key = Buffer.from(params.secret.slice(SECRET_PREFIX.length), 'base64');
  const expected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
  const signatures = (header('webhook-signature') ?? '').split(' ');
  if (!signatures.some((signature) => sameText(signature, expected))) throw new WebhookVerificationError('webhook-signature does not match.');

  const tolerance = params.toleranceSeconds ?? 300;
  const age = Math.floor((params.now ?? new Date()).getTime() / 1000) - Number(timestamp);
  if (Math.abs(age) > tolerance) throw new WebhookVerificationError(`The delivery is ${age} s old, beyond the ${tolerance} s tolerance.`);

  const payload = JSON.parse(body) as { event: string; data: T; timestamp: string };
  return { event: payload.event, data: payload.data, timestamp: payload.timestamp, deliveryId: id };
}

/** Narrows a verified event to one of spec 6.2, typing its data: `if (isEvent(e, Events.SubscriptionCreated)) e.data.status`. */
export function isEvent<E extends EventType<any>>(event: WebhookEvent, type: E): event is WebhookEvent<DataOf<E>> {
  return event.event === type.name;
}

export { Events };

function sameText(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
