import { Gatehouse, gatehousePaywall, verifyWebhook, VISITOR_COOKIE, WebhookVerificationError, type WebhookEvent } from '@gatehouse/node';
import express, { type Express } from 'express';
import { ARTICLES, type Article } from './articles';

export interface ExamplePublisherOptions {
  /** The Gatehouse gateway's origin. */
  gatehouseUrl: string;
  publishableKey: string;
  secretKey: string;
  /** The site's public origin when it differs from what requests name (a proxy in front). */
  publicOrigin?: string;
  /** Signing secret of a webhook registered for this site's /webhooks/gatehouse. */
  webhookSecret?: string;
  /** Where verified webhook events go (the console by default). */
  onEvent?: (event: WebhookEvent) => void;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, options: ExamplePublisherOptions): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<script>
  // The browser SDK and the server's middleware see one visitor: the SDK identifies it by the middleware's cookie.
  window.gatehouse = window.gatehouse || [];
  var visitor = document.cookie.match(/(?:^|; )${VISITOR_COOKIE}=([^;]+)/);
  if (visitor) gatehouse.push(['identify', decodeURIComponent(visitor[1])]);
</script>
<script src="${options.gatehouseUrl}/sdk/v1/gatehouse.js" data-publishable-key="${escape(options.publishableKey)}" async></script>
<script src="${options.gatehouseUrl}/sdk/v1/elements.js" type="module"></script>
</head><body><header><a href="/">The Example Courier</a></header><main>${body}</main></body></html>`;
}

function articlePage(article: Article, options: ExamplePublisherOptions): string {
  return page(
    article.title,
    `<article><h1>${escape(article.title)}</h1><p class="lede">${escape(article.lede)}</p>
<div class="article-body" data-gatehouse="paid">${article.body.map((p) => `<p>${escape(p)}</p>`).join('')}</div></article>`,
    options,
  );
}

/**
 * A publisher's own site, as docs/server.md describes it: articles whose paid part the Gatehouse
 * middleware removes for readers who may not read it, checkout and portal links through the Node
 * client, and a verified webhook endpoint.
 */
export function createExamplePublisher(options: ExamplePublisherOptions): Express {
  const server = new Gatehouse({ baseUrl: options.gatehouseUrl, secretKey: options.secretKey, publishableKey: options.publishableKey });
  const app = express();
  app.disable('x-powered-by');

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
    res.type('html').send(page('The Example Courier', `<h1>The Example Courier</h1><ul>${list}</ul>`, options));
  });

  app.get(/^\/articles\/(.+)$/, (req, res) => {
    const article = ARTICLES.find((a) => a.slug === req.params[0]);
    if (!article) return void res.status(404).type('text/plain').send('No such article.');
    res.type('html').send(articlePage(article, options));
  });

  // The paywall's call to action lands here: a checkout for the customer, then back to the article.
  app.get('/subscribe', async (req, res, next) => {
    const { customerId, priceId, returnTo } = req.query as Record<string, string | undefined>;
    if (!customerId || !priceId) return void res.status(400).type('text/plain').send('customerId and priceId are required.');
    const origin = options.publicOrigin ?? `${req.protocol}://${req.get('host')}`;
    try {
      const checkout = await server.subscriptions.checkout({ customerId, priceId, successUrl: `${origin}${returnTo ?? '/'}`, cancelUrl: `${origin}/` });
      res.redirect(303, checkout.url);
    } catch (error) {
      next(error);
    }
  });

  app.get('/account/billing', async (req, res, next) => {
    const customerId = String(req.query['customerId'] ?? '');
    if (!customerId) return void res.status(400).type('text/plain').send('customerId is required.');
    try {
      const portal = await server.subscriptions.portal({ customerId, returnUrl: `${options.publicOrigin ?? `${req.protocol}://${req.get('host')}`}/` });
      res.redirect(303, portal.url);
    } catch (error) {
      next(error);
    }
  });

  return app;
}
