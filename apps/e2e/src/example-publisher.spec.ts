import { createExamplePublisher, type ExamplePublisherOptions } from '@gatehouse/example-publisher';
import { Gatehouse, gatehouseFastify, withPaywall, type WebhookEvent } from '@gatehouse/node';
import { eventually } from '@gatehouse/testing';
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SITE, WholeSystem, type Reader } from './support/system-all';

const PAID_TEXT = ['The plan, costed at 40 million', 'Fishermen who opposed the first draft'];

/** The example publisher's site behind the Gatehouse middleware, fetched as a visitor, a subscriber and a search engine would. */
describe('example publisher with server-side enforcement', () => {
  let system: WholeSystem;
  let server: Server;
  let site: string;
  let subscriber: Reader;
  let reader: Reader;
  let priceId: string;
  let options: ExamplePublisherOptions;
  const events: WebhookEvent[] = [];

  beforeAll(async () => {
    system = await WholeSystem.start({ everyService: true });
    await system.paywall({ name: 'Premium', type: 'hard', match: { include: ['/articles/premium/**'] } });
    const product = await system.product('Digital');
    const price = await system.price(product.id, { currency: 'eur', unitAmount: 900, interval: 'month' });
    priceId = price.id;
    [subscriber, reader] = await Promise.all([system.reader(), system.reader()]);
    await system.grant(subscriber, price.id);
    options = { gatehouseUrl: system.url, publishableKey: system.publishableKey, secretKey: system.secretKey, publicOrigin: SITE, onEvent: (event) => events.push(event) };
    const app = createExamplePublisher(options);
    server = await new Promise<Server>((resolve) => {
      const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await system?.close();
  });

  const fetchPage = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${site}${path}`, { headers });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const contains = (bytes: Buffer, text: string) => bytes.includes(Buffer.from(text, 'utf8'));
  const structuredData = (bytes: Buffer) => {
    const match = /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/.exec(bytes.toString('utf8'));
    return match ? JSON.parse(match[1]) : null;
  };

  it('sends a visitor the page without a byte of its paid text, with the paywall in its place', async () => {
    const page = await fetchPage('/articles/premium/harbour-rebuild');
    expect(page.status).toBe(200);
    for (const text of PAID_TEXT) expect(contains(page.bytes, text)).toBe(false);
    expect(contains(page.bytes, 'The council voted on Tuesday night')).toBe(true);
    // The offer's element for the rule's presentation (a paywall's default: the modal).
    expect(contains(page.bytes, '<gatehouse-paywall-modal class="gatehouse-paid" data-gatehouse="paywall"></gatehouse-paywall-modal>')).toBe(true);
    expect(structuredData(page.bytes)).toMatchObject({ isAccessibleForFree: false, hasPart: { isAccessibleForFree: false, cssSelector: '.gatehouse-paid' } });
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
    expect(page.headers.get('vary')).toMatch(/Cookie/);
    expect(page.headers.get('set-cookie')).toMatch(/^gatehouse_visitor=[\w-]+; Path=\/; Max-Age=31536000; SameSite=Lax; Secure$/);
  });

  it('sends a reader without a subscription the same cut page, by cookie or by bearer token', async () => {
    const credentials: Array<Record<string, string>> = [{ Cookie: `gatehouse_token=${reader.accessToken}` }, { Authorization: `Bearer ${reader.accessToken}` }];
    for (const headers of credentials) {
      const page = await fetchPage('/articles/premium/harbour-rebuild', headers);
      for (const text of PAID_TEXT) expect(contains(page.bytes, text)).toBe(false);
    }
  });

  it('sends a subscriber every paid byte, with the structured data and headers that keep it out of every cache', async () => {
    const page = await fetchPage('/articles/premium/harbour-rebuild', { Cookie: `gatehouse_visitor=v-${randomUUID()}; gatehouse_token=${subscriber.accessToken}` });
    for (const text of PAID_TEXT) expect(contains(page.bytes, text)).toBe(true);
    expect(contains(page.bytes, '<div class="article-body gatehouse-paid" data-gatehouse="paid">')).toBe(true);
    expect(structuredData(page.bytes)).toMatchObject({ '@type': 'NewsArticle', isAccessibleForFree: false, hasPart: { cssSelector: '.gatehouse-paid' } });
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.headers.get('set-cookie')).toBeNull();
  });

  it('leaves a page no paywall covers untouched', async () => {
    const page = await fetchPage('/articles/free/market-day');
    expect(contains(page.bytes, 'Stallholders asked for the change')).toBe(true);
    expect(structuredData(page.bytes)).toBeNull();
    expect(page.headers.get('cache-control')).toBeNull();
  });

  it('reads an expired or forged token as a visitor, never as a subscriber', async () => {
    const page = await fetchPage('/articles/premium/orchard-census', { Cookie: `gatehouse_token=${subscriber.accessToken.slice(0, -4)}AAAA` });
    expect(page.status).toBe(200);
    expect(contains(page.bytes, 'They found 212 orchards')).toBe(false);
  });

  it('sends a reader to checkout and then to the billing portal through the Node client', async () => {
    const checkout = await fetch(`${site}/subscribe?customerId=${reader.id}&priceId=${priceId}&returnTo=/articles/premium/harbour-rebuild`, { redirect: 'manual' });
    expect(checkout.status).toBe(303);
    expect(checkout.headers.get('location')).toMatch(new RegExp(`^${system.fake.url}/checkout/cs_`));
    const portal = await fetch(`${site}/account/billing?customerId=${reader.id}`, { redirect: 'manual' });
    expect(portal.status).toBe(303);
    expect(portal.headers.get('location')).toMatch(/^http/);
  });

  it('takes verified webhook deliveries at its endpoint and refuses forged ones', async () => {
    const registered = await system.admin('/admin/webhooks', { body: { url: `${site}/webhooks/gatehouse`, events: ['customer.created'] } });
    expect(registered.status).toBe(201);
    options.webhookSecret = registered.body.secret;
    const email = `hooked-${randomUUID()}@example.com`;
    await system.api('/customers', { key: system.secretKey, body: { email, name: 'Hooked' } });
    const event = await eventually(async () => events.find((e) => (e.data as { email?: string }).email === email));
    expect(event).toMatchObject({ event: 'customer.created', deliveryId: expect.any(String) });
    const forged = await fetch(`${site}/webhooks/gatehouse`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Service-Signature': 'sha256=00', 'webhook-id': 'x', 'webhook-timestamp': '1', 'webhook-signature': 'v1,AA==' },
      body: JSON.stringify({ event: 'customer.created', data: {}, timestamp: new Date().toISOString() }),
    });
    expect(forged.status).toBe(400);
    expect(events.filter((e) => e.deliveryId === 'x')).toEqual([]);
  });

  describe('the same enforcement in Fastify and in a fetch-API handler', () => {
    const html = '<html><head></head><body><p>Lede.</p><section data-gatehouse="paid"><p>Paid paragraph.</p></section></body></html>';

    it('cuts the paid part in a Fastify onSend hook', async () => {
      const app = Fastify();
      gatehouseFastify(app, { client: new Gatehouse({ baseUrl: system.url, publishableKey: system.publishableKey }), publicOrigin: SITE });
      app.get('/articles/premium/*', async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
      const visitor = await app.inject({ method: 'GET', url: '/articles/premium/f' });
      const member = await app.inject({ method: 'GET', url: '/articles/premium/f', headers: { authorization: `Bearer ${subscriber.accessToken}` } });
      await app.close();
      expect(visitor.rawPayload.includes(Buffer.from('Paid paragraph.'))).toBe(false);
      expect(visitor.headers['cache-control']).toBe('private, no-cache');
      expect(member.rawPayload.includes(Buffer.from('Paid paragraph.'))).toBe(true);
      expect(member.headers['cache-control']).toBe('private, no-store');
    });

    it('cuts the paid part in a wrapped fetch-API handler', async () => {
      const handler = withPaywall(async () => new Response(html, { headers: { 'Content-Type': 'text/html' } }), {
        client: new Gatehouse({ baseUrl: system.url, publishableKey: system.publishableKey }),
        publicOrigin: SITE,
      });
      const visitor = await handler(new Request('http://edge.internal/articles/premium/e'));
      const member = await handler(new Request('http://edge.internal/articles/premium/e', { headers: { Cookie: `gatehouse_token=${subscriber.accessToken}` } }));
      expect(Buffer.from(await visitor.arrayBuffer()).includes(Buffer.from('Paid paragraph.'))).toBe(false);
      expect(visitor.headers.get('set-cookie')).toMatch(/^gatehouse_visitor=/);
      expect(Buffer.from(await member.arrayBuffer()).includes(Buffer.from('Paid paragraph.'))).toBe(true);
      expect(member.headers.get('cache-control')).toBe('private, no-store');
    });
  });
});
