import { ARTICLES, createExamplePublisher, EXAMPLE_PAYWALLS, type ExamplePublisherOptions } from '@gatehouse/example-publisher';
import type { PaywallDraft } from '@gatehouse/contracts';
import { Gatehouse, gatehouseFastify, withPaywall, type WebhookEvent } from '@gatehouse/node';
import { eventually } from '@gatehouse/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rawGet, type RawAnswer } from './support/raw-http';
import { SITE, WholeSystem, type Reader } from './support/system-all';

const PREMIUM = ARTICLES.find((a) => a.slug === 'premium/harbour-rebuild')!;
const PAID_TEXT = PREMIUM.body;
const ALL_PAID_TEXT = ARTICLES.filter((a) => !a.slug.startsWith('free/')).flatMap((a) => a.body);

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const holdsPaidText = (body: string) => ALL_PAID_TEXT.some((text) => body.includes(text));

/** The example publisher's site behind the Gatehouse middleware, fetched as a visitor, a subscriber, a search engine and an attacker would. */
describe('example publisher with server-side enforcement', () => {
  let system: WholeSystem;
  const servers: Server[] = [];
  let site: string;
  let subscriber: Reader;
  let reader: Reader;
  let priceId: string;
  let options: ExamplePublisherOptions;
  const events: WebhookEvent[] = [];

  beforeAll(async () => {
    system = await WholeSystem.start({ everyService: true, domains: ['127.0.0.1', 'localhost'] });
    // The example's own paywalls, one per presentation; the news meter at one article, so that the second is refused.
    for (const paywall of EXAMPLE_PAYWALLS) await system.paywall({ ...paywall, ...(paywall.type === 'metered' ? { config: { limit: 1, period: 'month' } } : {}) } as PaywallDraft);
    const product = await system.product({ name: 'Digital' });
    const price = await system.price(product.id, { currency: 'eur', unitAmount: 900, interval: 'month' });
    priceId = price.id;
    [subscriber, reader] = await Promise.all([system.reader(), system.reader()]);
    await system.grant(subscriber, price.id);
    options = { gatehouseUrl: system.url, publishableKey: system.publishableKey, secretKey: system.secretKey, publicOrigin: SITE, onEvent: (event) => events.push(event) };
    const server = createServer(createExamplePublisher(options));
    servers.push(server);
    site = `http://127.0.0.1:${await listen(server)}`;
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await system?.close();
  });

  const fetchPage = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${site}${path}`, { headers, redirect: 'manual' });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const contains = (bytes: Buffer, text: string) => bytes.includes(Buffer.from(text, 'utf8'));
  const structuredData = (bytes: Buffer) => {
    const match = /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/.exec(bytes.toString('utf8'));
    return match ? JSON.parse(match[1]) : null;
  };
  const signedIn = (who: Reader) => ({ Cookie: `gatehouse_token=${who.accessToken}` });

  it('sends a visitor the page without a byte of its paid text, with the offer of the rule in its place', async () => {
    const page = await fetchPage('/articles/premium/harbour-rebuild');
    expect(page.status).toBe(200);
    for (const text of PAID_TEXT) expect(contains(page.bytes, text)).toBe(false);
    expect(contains(page.bytes, PREMIUM.lede)).toBe(true);
    expect(contains(page.bytes, '<gatehouse-inline-paywall class="gatehouse-paid" data-gatehouse="paywall"></gatehouse-inline-paywall>')).toBe(true);
    expect(structuredData(page.bytes)).toMatchObject({ isAccessibleForFree: false, hasPart: { isAccessibleForFree: false, cssSelector: '.gatehouse-paid' } });
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
    expect(page.headers.get('vary')).toMatch(/Cookie/);
    expect(page.headers.get('set-cookie')).toMatch(/^gatehouse_visitor=[\w-]+; Path=\/; Max-Age=31536000; SameSite=Lax; Secure$/);
    // A page a phone can read.
    expect(contains(page.bytes, '<meta name="viewport" content="width=device-width, initial-scale=1">')).toBe(true);
  });

  it('renders the offer element of every presentation a rule can have', async () => {
    const visitor = { Cookie: `gatehouse_visitor=v-${randomUUID()}` };
    const offers: Array<[string, string]> = [
      ['/articles/premium/orchard-census', 'gatehouse-inline-paywall'],
      ['/articles/members/letters', 'gatehouse-sticky-bar'],
      ['/articles/insight/water-prices', 'gatehouse-content-lock'],
    ];
    // The news meter allows one article: the second is the modal's.
    expect(holdsPaidText((await fetchPage('/articles/news/bridge-reopens', visitor)).bytes.toString())).toBe(true);
    offers.push(['/articles/news/tram-timetable', 'gatehouse-paywall-modal']);
    for (const [path, element] of offers) {
      const html = (await fetchPage(path, visitor)).bytes.toString();
      expect([path, holdsPaidText(html), html.includes(`<${element} class="gatehouse-paid" data-gatehouse="paywall"></${element}>`)]).toEqual([path, false, true]);
    }
  });

  it('sends a reader without a subscription the same cut page, by cookie or by bearer token, and a registered reader the members page', async () => {
    const credentials: Array<Record<string, string>> = [signedIn(reader), { Authorization: `Bearer ${reader.accessToken}` }];
    for (const headers of credentials) {
      const page = await fetchPage('/articles/premium/harbour-rebuild', headers);
      for (const text of PAID_TEXT) expect(contains(page.bytes, text)).toBe(false);
    }
    expect(contains((await fetchPage('/articles/members/letters', signedIn(reader))).bytes, ARTICLES.find((a) => a.slug === 'members/letters')!.body[0])).toBe(true);
  });

  it('sends a subscriber known by the SDK cookie every paid byte on the first request, with the structured data and headers that keep it out of every cache', async () => {
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

  it('reads an expired, forged or foreign token as a visitor, never as a subscriber', async () => {
    const [header, payload, signature] = subscriber.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = [
      `${header}.${payload}.${signature.slice(0, -4)}AAAA`,
      `${header}.${Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600 })).toString('base64url')}.${signature}`,
      `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`,
    ];
    for (const token of forged) {
      const page = await fetchPage('/articles/premium/orchard-census', { Cookie: `gatehouse_token=${token}` });
      expect(page.status).toBe(200);
      expect(contains(page.bytes, 'They found 212 orchards')).toBe(false);
    }
  });

  it('starts checkout and the billing portal for the signed-in reader only, and sends them back to a page of this site only', async () => {
    const anonymous = await fetchPage(`/subscribe?priceId=${priceId}&returnTo=/articles/premium/harbour-rebuild`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`/sign-in?returnTo=${encodeURIComponent(`/subscribe?priceId=${priceId}&returnTo=/articles/premium/harbour-rebuild`)}`);
    const signInPage = (await fetchPage(anonymous.headers.get('location')!)).bytes.toString();
    expect(signInPage).toContain('location.assign("/subscribe?priceId=');
    expect(signInPage).toContain('<gatehouse-login-form>');

    const returns: Array<[string, string]> = [
      ['/articles/premium/harbour-rebuild', `${SITE}/articles/premium/harbour-rebuild`],
      ['//evil.example/phish', `${SITE}/`],
      ['https://evil.example/phish', `${SITE}/`],
      ['/\\evil.example/phish', `${SITE}/`],
      ['/%09/evil.example', `${SITE}/%09/evil.example`],
      ['/\t/evil.example', `${SITE}/`],
    ];
    for (const [returnTo, successUrl] of returns) {
      // A customerId in the query is no one's say-so: the checkout is the signed-in reader's.
      const checkout = await fetchPage(`/subscribe?priceId=${priceId}&customerId=${subscriber.id}&returnTo=${encodeURIComponent(returnTo)}`, signedIn(reader));
      expect(checkout.status).toBe(303);
      expect(checkout.headers.get('location')).toMatch(new RegExp(`^${system.fake.url}/checkout/cs_`));
      const session = (await system.fake.requestsTo('POST', '/v1/checkout/sessions')).at(-1)!;
      expect([returnTo, session.body['success_url'], session.body['metadata']?.customerId]).toEqual([returnTo, successUrl, reader.id]);
    }
    expect((await fetchPage('/account/billing')).headers.get('location')).toBe('/sign-in?returnTo=%2Faccount%2Fbilling');
    const portal = await fetchPage(`/account/billing?customerId=${subscriber.id}`, signedIn(reader));
    expect(portal.status).toBe(303);
    expect(portal.headers.get('location')).toMatch(/^http/);
    expect((await system.fake.requestsTo('POST', '/v1/billing_portal/sessions')).at(-1)!.body['return_url']).toBe(`${SITE}/`);
  });

  it('answers what it cannot do with a plain page, never a stack trace', async () => {
    const failures: Array<[string, Record<string, string>, number]> = [
      ['/subscribe', signedIn(reader), 400],
      ['/subscribe?priceId=00000000-0000-4000-8000-000000000000', signedIn(reader), 400],
      ['/articles/%E0%A4%A', {}, 400],
      ['/no-such-page', {}, 404],
      ['/articles/premium/nothing-here', {}, 404],
    ];
    for (const [path, headers, status] of failures) {
      const page = await fetchPage(path, headers);
      const html = page.bytes.toString();
      expect([path, page.status, page.headers.get('content-type')]).toEqual([path, status, 'text/html; charset=utf-8']);
      expect(html).not.toMatch(/\bat \S+ \(|node_modules|Error:/);
    }
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

  /*
   * Issue 21: the same hostile requests against the Express example, a Fastify site and a fetch-API
   * handler, none of them told their public origin (the Host decides). Each router serves what it
   * serves; whatever it serves, a visitor gets no paid text and a subscriber gets all of it.
   */
  describe('hostile requests, per adapter', () => {
    const ARTICLE = '/articles/premium/harbour-rebuild';
    const overlong = 'x'.repeat(6000);
    /** [what it tries, request target, Host header (null: none)] */
    const HOSTILE: Array<[string, string, string | null]> = [
      ['an encoded slash', '/articles/premium%2Fharbour-rebuild', 'HOST'],
      ['an encoded slash, lower case', '/articles/premium%2fharbour-rebuild', 'HOST'],
      ['an encoded letter', '/articles/%70remium/harbour-rebuild', 'HOST'],
      ['double encoding', '/articles/%2570remium/harbour-rebuild', 'HOST'],
      ['triple encoding of the slash', '/articles/premium%25252Fharbour-rebuild', 'HOST'],
      ['encoded dot segments', '/articles/free/%2e%2e/premium/harbour-rebuild', 'HOST'],
      ['an encoded ../', '/articles/free/..%2Fpremium/harbour-rebuild', 'HOST'],
      ['plain dot segments', '/articles/free/../premium/./harbour-rebuild', 'HOST'],
      ['duplicate slashes', '//articles//premium//harbour-rebuild', 'HOST'],
      ['mixed case', '/Articles/PREMIUM/Harbour-Rebuild', 'HOST'],
      ['trailing dots', '/articles/premium./harbour-rebuild.', 'HOST'],
      ['a trailing slash', '/articles/premium/harbour-rebuild/', 'HOST'],
      ['a backslash', '/articles/premium\\harbour-rebuild', 'HOST'],
      ['an encoded backslash', '/articles/premium%5Charbour-rebuild', 'HOST'],
      ['an overlong query', `${ARTICLE}?utm_source=${overlong}`, 'HOST'],
      ['an overlong path', `${ARTICLE}/${overlong}`, 'HOST'],
      ['Host with a fragment', ARTICLE, 'localhost#'],
      ['Host with a path and query', ARTICLE, 'localhost/free?x='],
      ['Host with credentials', ARTICLE, 'reader@localhost'],
      ['Host with a port out of range', ARTICLE, 'localhost:99999'],
      ['Host with a space', ARTICLE, 'local host'],
      ['no Host', ARTICLE, null],
      ['a Host not of the publication', ARTICLE, 'elsewhere.example'],
      ['Host in upper case with a trailing dot', ARTICLE, 'LOCALHOST.'],
      ['absolute-form target', `http://localhost${ARTICLE}`, 'elsewhere.example'],
      ['absolute-form target elsewhere', `http://elsewhere.example${ARTICLE}`, 'HOST'],
    ];
    const MALFORMED_HOSTS = new Set(['localhost#', 'localhost/free?x=', 'reader@localhost', 'localhost:99999', 'local host']);

    /** The article a router found for a path, or none (a 404). */
    const articleAt = (path: string) => ARTICLES.find((a) => `/articles/${a.slug}` === path);
    const articleHtml = (path: string): string | null => {
      const article = articleAt(path);
      if (!article) return null;
      return `<!doctype html><html><head><title>${article.title}</title></head><body><h1>${article.title}</h1><p>${article.lede}</p><div data-gatehouse="paid">${article.body.map((p) => `<p>${p}</p>`).join('')}</div></body></html>`;
    };

    /** A Fastify site as lenient as its router can be made: case-insensitive, duplicate slashes ignored, its wildcard decoded. */
    async function fastifySite(): Promise<number> {
      const app: FastifyInstance = Fastify({ routerOptions: { caseSensitive: false, ignoreDuplicateSlashes: true, ignoreTrailingSlash: true } });
      gatehouseFastify(app, { client: new Gatehouse({ baseUrl: system.url, publishableKey: system.publishableKey }) });
      app.get('/articles/*', async (request, reply) => {
        const html = articleHtml(`/articles/${(request.params as { '*': string })['*'].replace(/\/$/, '')}`);
        return html ? reply.type('text/html; charset=utf-8').send(html) : reply.status(404).type('text/plain').send('Not found');
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      servers.push(app.server);
      return (app.server.address() as AddressInfo).port;
    }

    /** A fetch-API handler routing on the fully decoded path in lower case, served by Node the naive way: the URL from Host and target by concatenation. */
    async function fetchSite(): Promise<number> {
      const handler = withPaywall(
        async (request: Request) => {
          let path: string;
          try {
            path = decodeURIComponent(new URL(request.url).pathname).toLowerCase();
          } catch {
            return new Response('Bad request', { status: 400 });
          }
          const html = articleHtml(path.replace(/\/$/, ''));
          return html ? new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }) : new Response('Not found', { status: 404 });
        },
        { client: new Gatehouse({ baseUrl: system.url, publishableKey: system.publishableKey }) },
      );
      const server = createServer(async (req, res) => {
        let request: Request;
        try {
          request = new Request(`http://${req.headers.host}${req.url}`, { headers: req.headers as Record<string, string> });
        } catch {
          return void res.writeHead(400).end('Bad request');
        }
        const answer = await handler(request);
        res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
      });
      servers.push(server);
      return listen(server);
    }

    async function expressSite(): Promise<number> {
      const server = createServer(createExamplePublisher({ gatehouseUrl: system.url, publishableKey: system.publishableKey, secretKey: system.secretKey, onError: () => undefined }));
      servers.push(server);
      return listen(server);
    }

    it.each([
      ['Express (the example publisher)', expressSite],
      ['Fastify', fastifySite],
      ['a fetch-API handler', fetchSite],
    ])('%s: no paid text for a visitor, all of it for a subscriber, whatever the request', async (_adapter, start) => {
      const port = await start();
      const send = (target: string, host: string | null, headers: Record<string, string>): Promise<RawAnswer> =>
        rawGet(port, target, { ...(host === null ? {} : { Host: host === 'HOST' ? `127.0.0.1:${port}` : host }), ...headers });
      const served: string[] = [];
      for (const [what, target, host] of HOSTILE) {
        const visitor = await send(target, host, { Cookie: 'gatehouse_visitor=v-hostile; gatehouse_token=%E0%A4%A' });
        expect([what, visitor.status < 500, holdsPaidText(visitor.body)]).toEqual([what, true, false]);
        // Refused, or (a naive fetch runtime) read as another URL its router does not serve.
        if (host && MALFORMED_HOSTS.has(host)) expect([what, [400, 404].includes(visitor.status)]).toEqual([what, true]);
        if (!visitor.body.includes(PREMIUM.lede)) continue;
        // The router served the article: a subscriber reads all of it, unless the URL names another site.
        served.push(what);
        const member = await send(target, host, signedIn(subscriber));
        const elsewhere = host === 'elsewhere.example' && !target.startsWith('http://localhost') || target.startsWith('http://elsewhere');
        expect([what, member.status, PAID_TEXT.every((text) => member.body.includes(text))]).toEqual([what, 200, !elsewhere]);
      }
      // Every router serves these, so the table has teeth; the rest each serves as it does.
      expect(served).toEqual(expect.arrayContaining(['an encoded slash', 'an encoded letter', 'an overlong query', 'a Host not of the publication', 'Host in upper case with a trailing dot']));
    }, 120_000);

    it('answers a malformed Host with problem details where the page has paid text, and ignores Host once publicOrigin is set', async () => {
      const port = await expressSite();
      for (const host of MALFORMED_HOSTS) {
        const answer = await rawGet(port, ARTICLE, { Host: host });
        expect([host, answer.status, answer.headers['content-type']]).toEqual([host, 400, 'application/problem+json; charset=utf-8']);
        expect(JSON.parse(answer.body)).toMatchObject({ status: 400, code: 'validation_failed', detail: 'The Host header does not name a host.' });
      }
      // A page without paid text is none of the enforcement's business.
      expect((await rawGet(port, '/', { Host: 'localhost#' })).status).toBe(200);
      const pinned = Number(new URL(site).port);
      const member = await rawGet(pinned, ARTICLE, { Host: 'localhost#', ...signedIn(subscriber) });
      expect(PAID_TEXT.every((text) => member.body.includes(text))).toBe(true);
      const visitor = await rawGet(pinned, ARTICLE, { Host: 'localhost/free?x=' });
      expect([visitor.status, holdsPaidText(visitor.body)]).toEqual([200, false]);
    });

    it('denies, whatever onCheckFailure says, a check the API refuses: a Host that is not the publication', async () => {
      const app = Fastify();
      gatehouseFastify(app, { client: new Gatehouse({ baseUrl: system.url, publishableKey: system.publishableKey }), onCheckFailure: 'grant' });
      app.get('/articles/*', async (_request, reply) => reply.type('text/html; charset=utf-8').send(articleHtml(ARTICLE)));
      const elsewhere = await app.inject({ method: 'GET', url: ARTICLE, headers: { host: 'elsewhere.example' } });
      const unreachable = Fastify();
      gatehouseFastify(unreachable, { client: new Gatehouse({ baseUrl: 'http://127.0.0.1:9', publishableKey: system.publishableKey, maxRetries: 0 }), onCheckFailure: 'grant' });
      unreachable.get('/articles/*', async (_request, reply) => reply.type('text/html; charset=utf-8').send(articleHtml(ARTICLE)));
      const down = await unreachable.inject({ method: 'GET', url: ARTICLE, headers: { host: '127.0.0.1' } });
      await Promise.all([app.close(), unreachable.close()]);
      expect(holdsPaidText(elsewhere.body)).toBe(false);
      // Only when Gatehouse cannot answer at all does `grant` keep the text.
      expect(holdsPaidText(down.body)).toBe(true);
    });
  });
});
