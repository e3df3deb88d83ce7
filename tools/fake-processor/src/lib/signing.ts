import { createHmac } from 'node:crypto';

export interface DeliveryOptions {
  /** Unix seconds written into the signature; now by default. An old one makes a stale delivery. */
  timestamp?: number;
  /** Replaces the computed `Stripe-Signature` header; null sends none. */
  signature?: string | null;
}

export interface DeliveryResult {
  status: number;
  body: unknown;
}

/** The processor's webhook signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" under the endpoint secret>`. */
export function signatureHeader(body: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/**
 * POSTs an event the way the processor delivers it: pretty-printed JSON (so a receiver that
 * re-serialises the body instead of verifying the bytes received fails), signed with the secret.
 */
export async function deliverEvent(targetUrl: string, secret: string, event: object, options: DeliveryOptions = {}): Promise<DeliveryResult> {
  const body = JSON.stringify(event, null, 2);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = options.signature === undefined ? signatureHeader(body, secret, timestamp) : options.signature;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
  };
  if (signature !== null) headers['Stripe-Signature'] = signature;
  const response = await fetch(targetUrl, { method: 'POST', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed };
}
