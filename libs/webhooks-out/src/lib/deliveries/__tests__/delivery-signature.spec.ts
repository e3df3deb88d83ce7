import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from '../../secrets/webhook-secret';
import { deliveryHeaders } from '../delivery-signature';

describe('delivery signatures', () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ event: 'customer.created', data: { customerId: 'c1', email: 'ré@example.com', name: 'Ré' }, timestamp: '2031-01-01T00:00:00.000Z' });
  const headers = deliveryHeaders({ deliveryId: 'd-1', event: 'customer.created', body, secret, at: new Date('2031-01-01T00:00:07.900Z') });

  it('generates whsec_ secrets of 32 random bytes', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('signs the raw body with the secret as shown (X-Service-Signature, spec 5.4)', () => {
    const expected = createHmac('sha256', secret).update(body).digest('hex');
    expect(headers['X-Service-Signature']).toBe(`sha256=${expected}`);
    expect(headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Service-Event': 'customer.created', 'X-Service-Delivery': 'd-1' });
  });

  it('signs id.timestamp.body with the decoded secret (Standard Webhooks)', () => {
    expect(headers['webhook-id']).toBe('d-1');
    expect(headers['webhook-timestamp']).toBe('1924992007');
    const key = Buffer.from(secret.split('_')[1], 'base64');
    const expected = createHmac('sha256', key).update(`d-1.1924992007.${body}`).digest();
    const [version, signature] = headers['webhook-signature'].split(',');
    expect(version).toBe('v1');
    expect(timingSafeEqual(Buffer.from(signature, 'base64'), expected)).toBe(true);
  });

  it("passes the Standard Webhooks reference library's verification, and fails it for a changed body", () => {
    const now = deliveryHeaders({ deliveryId: 'd-2', event: 'customer.created', body, secret, at: new Date() });
    expect(new Webhook(secret).verify(body, now)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('c1', 'c2'), now)).toThrow(/No matching signature/);
  });
});
