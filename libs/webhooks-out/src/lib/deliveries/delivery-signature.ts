import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

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
 * keyed with the secret as shown to the publisher; `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` are Standard Webhooks' (signed by its reference library, keyed with the bytes
 * after `whsec_`), so receivers can verify with that standard's libraries and refuse replays by
 * timestamp.
 */
export function deliveryHeaders({ deliveryId, event, body, secret, at }: SignedRequest): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Event': event,
    'X-Service-Delivery': deliveryId,
    'X-Service-Signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    'webhook-id': deliveryId,
    'webhook-timestamp': Math.floor(at.getTime() / 1000).toString(),
    'webhook-signature': new Webhook(secret).sign(deliveryId, at, body),
  };
}
