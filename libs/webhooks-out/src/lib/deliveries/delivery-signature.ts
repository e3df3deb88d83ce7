import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../secrets/webhook-secret';

const USER_AGENT = 'Gatehouse-Webhooks/1';

export interface SignedRequest {
  deliveryId: string;
  event: string;
  /** The exact bytes sent. */
  body: string;
  secret: string;
  /** When this attempt is made; Standard Webhooks receivers refuse stale timestamps. */
  at: Date;
}

/**
 * The headers of one attempt. `X-Service-Signature` (spec 5.4) is the HMAC-SHA256 of the body
 * keyed with the secret as shown to the publisher; the Standard Webhooks `webhook-signature` signs
 * `id.timestamp.body` keyed with the secret's bytes (the base64 after `whsec_`), so receivers can use
 * that standard's libraries and reject replays by timestamp.
 */
export function deliveryHeaders({ deliveryId, event, body, secret, at }: SignedRequest): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000).toString();
  const standardKey = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Event': event,
    'X-Service-Delivery': deliveryId,
    'X-Service-Signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    'webhook-id': deliveryId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${createHmac('sha256', standardKey).update(`${deliveryId}.${timestamp}.${body}`).digest('base64')}`,
  };
}
