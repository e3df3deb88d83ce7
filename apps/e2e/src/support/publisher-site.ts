import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a page of the site has seen of the SDK, recorded by listeners it queued before the script loaded. */
export interface PageRecord {
  access: Array<Record<string, any>>;
  errors: Array<{ name: string; code: string; status: number; detail: string }>;
  /** The email of the reader after each auth change, null for a logout. */
  auth: Array<string | null>;
}

/**
 * A publisher's site on its own origin, `http://127.0.0.1:<port>` (127.0.0.1 being one of the
 * publication's domains), whose every page carries nothing but the SDK's script tag pointing at
 * the gateway on `http://localhost:<port>`, a second origin, and a few listeners queued on
 * `window.gatehouse` before the script loads. `?failMode=closed` sets the tag's fail mode;
 * `?elements` adds the web components with the offer code field and an inline paywall.
 */
export class PublisherSite {
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(gatewayUrl: string, publishableKey: string): Promise<PublisherSite> {
    const sdkOrigin = gatewayUrl.replace('//127.0.0.1:', '//localhost:');
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/favicon.ico') return void res.writeHead(404).end();
      const failMode = url.searchParams.get('failMode') === 'closed' ? 'closed' : 'open';
      const elements = url.searchParams.has('elements')
        ? `<script src="${sdkOrigin}/sdk/v1/elements.js" async></script><script src="${sdkOrigin}/sdk/v1/offers.js" async></script>`
        : '';
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${url.pathname}</title>
  <script>
    window.record = { access: [], errors: [], auth: [] };
    window.gatehouse = window.gatehouse || [];
    gatehouse.push(['on', 'access', function (result) { record.access.push(result); }]);
    gatehouse.push(['on', 'error', function (e) { record.errors.push({ name: e.name, code: e.code, status: e.status, detail: e.detail }); }]);
    gatehouse.push(['onAuthChange', function (session) { record.auth.push(session ? session.customer.email : null); }]);
  </script>
  <script src="${sdkOrigin}/sdk/v1/gatehouse.js" data-publishable-key="${publishableKey}" data-fail-mode="${failMode}" async></script>
  ${elements}
</head>
<body><main><h1>An article at ${url.pathname}</h1><p>Words worth paying for.</p>${elements ? '<gatehouse-inline-paywall></gatehouse-inline-paywall>' : ''}</main></body>
</html>`);
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    return new PublisherSite(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  close(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }
}
