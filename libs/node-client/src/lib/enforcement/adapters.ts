import { PaywallEnforcer, type EnforcementOptions, type PageRequest } from './paywall-enforcer';

/*
 * The enforcer for each kind of server. Each looks only at HTML answers to GET requests that
 * contain a paid region; everything else passes untouched.
 */

const isHtml = (contentType: string | null | undefined) => /^text\/html\b/i.test(contentType ?? '');

/** For fetch-API runtimes (edge workers, Next.js route handlers, Deno, Bun): wraps a handler. */
export function withPaywall<A extends unknown[]>(
  handler: (request: Request, ...rest: A) => Response | Promise<Response>,
  options: EnforcementOptions,
): (request: Request, ...rest: A) => Promise<Response> {
  const enforcer = new PaywallEnforcer(options);
  return async (request, ...rest) => {
    const response = await handler(request, ...rest);
    if (request.method !== 'GET' || !isHtml(response.headers.get('content-type'))) return response;
    const url = new URL(request.url);
    const page = await enforcer.enforce({ url: enforcer.pageUrl(url.origin, url.pathname + url.search), headers: Object.fromEntries(request.headers) }, await response.text());
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    for (const [name, value] of Object.entries(page.headers)) {
      if (name === 'Set-Cookie') headers.append(name, value);
      else headers.set(name, value);
    }
    return new Response(page.html, { status: response.status, statusText: response.statusText, headers });
  };
}

/** The parts of Express's request and response the middleware uses. */
interface ExpressRequest {
  method: string;
  ip?: string;
  protocol: string;
  originalUrl: string;
  headers: Record<string, string | string[] | undefined>;
  get(name: string): string | undefined;
}
interface ExpressResponse {
  send(body?: unknown): unknown;
  get(name: string): string | undefined;
  setHeader(name: string, value: string | string[]): unknown;
  getHeader(name: string): unknown;
}

/** Express middleware: `app.use(gatehousePaywall({ client }))`. It acts on HTML sent with `res.send` or `res.render`. */
export function gatehousePaywall(options: EnforcementOptions) {
  const enforcer = new PaywallEnforcer(options);
  return (req: ExpressRequest, res: ExpressResponse, next: (error?: unknown) => void): void => {
    if (req.method !== 'GET') return next();
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      const html = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : null;
      if (html === null || !isHtml(res.get('Content-Type') ?? 'text/html')) return send(body);
      const page: PageRequest = { url: enforcer.pageUrl(`${req.protocol}://${req.get('host')}`, req.originalUrl), headers: flatten(req.headers), ip: req.ip };
      enforcer.enforce(page, html).then(
        (enforced) => {
          applyHeaders(res, enforced.headers);
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          send(enforced.html);
        },
        (error: unknown) => next(error),
      );
      return res;
    };
    next();
  };
}

/** The parts of Fastify the plugin uses. */
interface FastifyLike {
  addHook(
    name: 'onSend',
    hook: (request: FastifyRequestLike, reply: FastifyReplyLike, payload: unknown) => Promise<unknown>,
  ): unknown;
}
interface FastifyRequestLike {
  method: string;
  ip: string;
  protocol: string;
  host: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}
interface FastifyReplyLike {
  getHeader(name: string): unknown;
  header(name: string, value: string | string[]): unknown;
  removeHeader(name: string): unknown;
}

/** Fastify: `gatehouseFastify(app, { client })` adds an onSend hook for HTML answers. */
export function gatehouseFastify(app: FastifyLike, options: EnforcementOptions): void {
  const enforcer = new PaywallEnforcer(options);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || typeof payload !== 'string' || !isHtml(String(reply.getHeader('content-type') ?? ''))) return payload;
    const page = { url: enforcer.pageUrl(`${request.protocol}://${request.host}`, request.url), headers: flatten(request.headers), ip: request.ip };
    const enforced = await enforcer.enforce(page, payload);
    for (const [name, value] of Object.entries(enforced.headers)) reply.header(name, value);
    reply.removeHeader('content-length');
    return enforced.html;
  });
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]));
}

function applyHeaders(res: ExpressResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (name !== 'Set-Cookie') {
      res.setHeader(name, value);
      continue;
    }
    const existing = res.getHeader('Set-Cookie');
    res.setHeader('Set-Cookie', [...(Array.isArray(existing) ? existing : existing ? [String(existing)] : []), value]);
  }
}
