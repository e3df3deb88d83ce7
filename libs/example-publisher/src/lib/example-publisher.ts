import {
  Gatehouse,
  GatehouseApiError,
  GatehouseConnectionError,
  gatehousePaywall,
  requestedUrl,
  verifyWebhook,
  VISITOR_COOKIE,
  WebhookVerificationError,
  type WebhookEvent,
} from '@gatehouse/node';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { ARTICLES, type Article } from './articles';

export interface ExamplePublisherOptions {
  /** The Gatehouse gateway's origin. */
  gatehouseUrl: string;
  publishableKey: string;
  secretKey: string;
  /** The site's public origin (set it in production; without it the request's checked Host is used). */
  publicOrigin?: string;
  /** Signing secret of a webhook registered for this site's /webhooks/gatehouse. */
  webhookSecret?: string;
  /** Where verified webhook events go (the console by default). */
  onEvent?: (event: WebhookEvent) => void;
  /** Where failures are reported (the console by default); the reader sees a plain page, never a stack trace. */
  onError?: (error: unknown) => void;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** A value for an inline script: JSON that cannot close the script element. */
const scriptValue = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE = `
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; font: 18px/1.6 Georgia, 'Times New Roman', serif; color: #1d2230; background: #fcfbf8; }
  header, main, footer { max-width: 44rem; margin: 0 auto; padding: 1rem; }
  header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; border-bottom: 3px double #1d2230; }
  header .brand { font-size: 1.5rem; font-weight: bold; color: inherit; text-decoration: none; margin-inline-end: auto; }
  nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; font: 15px system-ui, sans-serif; }
  nav a { color: inherit; }
  .account { display: flex; gap: .5rem; align-items: center; font: 15px system-ui, sans-serif; }
  .account button, .account a { font: inherit; padding: .4rem .8rem; border: 1px solid #1d2230; border-radius: 6px; background: #fff; color: inherit; text-decoration: none; cursor: pointer; }
  html:not(.signed-in) .when-signed-in, html.signed-in .when-signed-out { display: none; }
  h1 { line-height: 1.2; font-size: clamp(1.6rem, 5vw, 2.4rem); }
  .lede { font-size: 1.15em; }
  ul.articles { padding-inline-start: 1.2rem; }
  footer { font: 14px system-ui, sans-serif; color: #4b5161; padding-bottom: 8rem; }
  @media (max-width: 30rem) { body { font-size: 17px; } header { padding: .75rem; } .account { width: 100%; } }
`;

/**
 * Every page: the SDK identified by the middleware's visitor cookie (one visitor for browser and
 * server), the elements, and the reader's account in the header. The SDK keeps the reader's token
 * in the `gatehouse_token` cookie, which is how this server knows a subscriber on the first request.
 */
function page(title: string, body: string, options: ExamplePublisherOptions): string {
  const sections = [
    ['/articles/premium/harbour-rebuild', 'Premium'],
    ['/articles/news/bridge-reopens', 'News'],
    ['/articles/members/letters', 'Members'],
    ['/articles/insight/water-prices', 'Insight'],
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · The Example Courier</title>
<style>${STYLE}</style>
<script>
  window.gatehouse = window.gatehouse || [];
  var visitor = document.cookie.match(/(?:^|; )${VISITOR_COOKIE}=([^;]+)/);
  if (visitor) gatehouse.push(['identify', decodeURIComponent(visitor[1])]);
</script>
<script src="${escape(options.gatehouseUrl)}/sdk/v1/gatehouse.js" data-publishable-key="${escape(options.publishableKey)}" async></script>
<script src="${escape(options.gatehouseUrl)}/sdk/v1/elements.js" async></script>
</head><body>
<header>
  <a class="brand" href="/">The Example Courier</a>
  <nav aria-label="Sections">${sections.map(([href, name]) => `<a href="${href}">${name}</a>`).join('')}</nav>
  <div class="account">
    <button id="sign-in" class="when-signed-out" type="button">Sign in</button>
    <span id="reader" class="when-signed-in"></span>
    <a class="when-signed-in" href="/account/billing">Billing</a>
    <button id="sign-out" class="when-signed-in" type="button">Sign out</button>
  </div>
</header>
<main>${body}</main>
<footer>The Example Courier is the example publisher of Gatehouse: its server removes the paid text for readers who may not read it.</footer>
<gatehouse-auth-modal></gatehouse-auth-modal>
<script>
  gatehouse.push(function (g) {
    function show(session) {
      document.documentElement.classList.toggle('signed-in', !!session);
      document.getElementById('reader').textContent = session ? session.customer.email : '';
    }
    g.onAuthChange(show);
    g.getSession().then(show);
    document.getElementById('sign-in').addEventListener('click', function () { document.querySelector('gatehouse-auth-modal').show('login'); });
    // Signed out, the page the server made for the reader is theirs no more.
    document.getElementById('sign-out').addEventListener('click', function () { g.logout().then(function () { location.reload(); }); });
  });
</script>
</body></html>`;
}

function articlePage(article: Article, options: ExamplePublisherOptions): string {
  return page(
    article.title,
    `<article><h1>${escape(article.title)}</h1><p class="lede">${escape(article.lede)}</p>
<div class="article-body" data-gatehouse="paid">${article.body.map((p) => `<p>${escape(p)}</p>`).join('')}</div></article>`,
    options,
  );
}

/** A path on this site (`/…`, never `//host` or a URL elsewhere), or null. */
export function sameOriginPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null;
  const base = 'http://same-origin.invalid';
  try {
    const url = new URL(value, base);
    return url.origin === base ? `${url.pathname}${url.search}` : null;
  } catch {
    return null;
  }
}

class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A publisher's own site, as docs/server.md describes it: articles whose paid part the Gatehouse
 * middleware removes for readers who may not read it (the offer element of each rule's
 * presentation in its place), readers known by the SDK's token cookie, checkout and portal for
 * the signed-in reader through the Node client, and a verified webhook endpoint.
 */
export function createExamplePublisher(options: ExamplePublisherOptions): Express {
  const server = new Gatehouse({ baseUrl: options.gatehouseUrl, secretKey: options.secretKey, publishableKey: options.publishableKey });
  const app = express();
  app.disable('x-powered-by');
  const html = (res: Response, status: number, title: string, body: string) => res.status(status).type('html').send(page(title, body, options));
  /** This site's absolute URL of a path, on publicOrigin or the request's checked Host. */
  const siteUrl = (req: Request, path: string): string => {
    const url = requestedUrl({ protocol: req.protocol, host: req.get('host'), target: path }, options.publicOrigin);
    if (!url) throw new PageError(400, 'The Host header does not name a host.');
    return url;
  };
  /** The signed-in reader (the SDK's token cookie, verified offline), else off to sign in first. */
  const readerOr = async (req: Request, res: Response) => {
    const reader = await server.auth.customerOf(req.headers);
    if (!reader) res.redirect(303, `/sign-in?returnTo=${encodeURIComponent(req.originalUrl)}`);
    return reader;
  };

  app.post('/webhooks/gatehouse', express.raw({ type: 'application/json', limit: '1mb' }), (req, res) => {
    if (!options.webhookSecret) return void res.status(404).end();
    try {
      const event = verifyWebhook({ body: req.body as Buffer, headers: req.headers, secret: options.webhookSecret });
      (options.onEvent ?? ((e) => console.log(`webhook ${e.event} ${e.deliveryId}`)))(event);
      res.status(204).end();
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      res.status(400).type('text/plain').send(error.message);
    }
  });

  app.use(gatehousePaywall({ client: server, publicOrigin: options.publicOrigin }));

  app.get('/', (_req, res) => {
    const list = ARTICLES.map((a) => `<li><a href="/articles/${a.slug}">${escape(a.title)}</a></li>`).join('');
    html(res, 200, 'Front page', `<h1>The Example Courier</h1><ul class="articles">${list}</ul>`);
  });

  app.get(/^\/articles\/(.+)$/, (req, res) => {
    const article = ARTICLES.find((a) => a.slug === req.params[0]);
    if (!article) return void html(res, 404, 'Not found', '<h1>No such article</h1><p><a href="/">Back to the front page</a></p>');
    res.type('html').send(articlePage(article, options));
  });

  // Where a reader lands to sign in before a checkout or the billing portal, and is sent back after.
  app.get('/sign-in', (req, res) => {
    const returnTo = sameOriginPath(req.query['returnTo']) ?? '/';
    html(
      res,
      200,
      'Sign in',
      `<h1>Sign in to continue</h1><gatehouse-login-form></gatehouse-login-form><h2>New here?</h2><gatehouse-register-form></gatehouse-register-form>
<script>['login', 'register'].forEach(function (type) { document.addEventListener(type, function () { location.assign(${scriptValue(returnTo)}); }); });</script>`,
    );
  });

  // A checkout for the signed-in reader, then back to a page of this site.
  app.get('/subscribe', async (req, res, next) => {
    try {
      const priceId = req.query['priceId'];
      if (typeof priceId !== 'string' || !priceId) throw new PageError(400, 'Choose a plan: priceId is required.');
      const reader = await readerOr(req, res);
      if (!reader) return;
      const returnTo = sameOriginPath(req.query['returnTo']) ?? '/';
      const checkout = await server.subscriptions.checkout({ customerId: reader.customerId, priceId, successUrl: siteUrl(req, returnTo), cancelUrl: siteUrl(req, returnTo) });
      res.redirect(303, checkout.url);
    } catch (error) {
      next(error);
    }
  });

  app.get('/account/billing', async (req, res, next) => {
    try {
      const reader = await readerOr(req, res);
      if (!reader) return;
      const portal = await server.subscriptions.portal({ customerId: reader.customerId, returnUrl: siteUrl(req, '/') });
      res.redirect(303, portal.url);
    } catch (error) {
      next(error);
    }
  });

  app.use((_req: Request, res: Response) => html(res, 404, 'Not found', '<h1>Not found</h1><p><a href="/">Back to the front page</a></p>'));

  // A plain page for every failure: what went wrong for the reader, never how.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = statusOf(error);
    if (status >= 500) (options.onError ?? ((e) => console.error('example publisher:', e)))(error);
    const message = error instanceof PageError ? error.message : status < 500 ? 'The request could not be read.' : 'Something went wrong on our side. Please try again in a moment.';
    html(res, status, 'Something went wrong', `<h1>Sorry</h1><p>${escape(message)}</p><p><a href="/">Back to the front page</a></p>`);
  });

  return app;
}

/** Express's own 4xx (a malformed URL or body), ours, the API's refusals as a bad request; anything else 500 (502 when Gatehouse failed). */
function statusOf(error: unknown): number {
  if (error instanceof PageError) return error.status;
  if (error instanceof GatehouseApiError) return error.status < 500 && error.status !== 429 ? 400 : 502;
  if (error instanceof GatehouseConnectionError) return 502;
  const status = (error as { status?: unknown })?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 500;
}
