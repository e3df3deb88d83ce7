import { MALFORMED_HOST, PaywallEnforcer, type EnforcedPage, type EnforcementOptions } from './paywall-enforcer';

/*
 * The enforcer for each kind of server. Each looks only at HTML answers to GET requests that
 * contain a paid region; everything else passes untouched. Each hands the enforcer the request
 * line as it came (scheme, Host, target), so the page decided is the one its router served.
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
    const line = { protocol: url.protocol, host: url.host, target: url.pathname + url.search };
    const page = await enforcer.enforceRequest(line, { headers: request.headers }, await response.text());
    if (!page) return new Response(MALFORMED_HOST.body, { status: MALFORMED_HOST.status, headers: { 'Content-Type': MALFORMED_HOST.contentType } });
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
}
interface ExpressResponse {
  send(body?: unknown): unknown;
  status(code: number): unknown;
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
      const line = { protocol: req.protocol, host: hostOf(req.headers), target: req.originalUrl };
      enforcer.enforceRequest(line, { headers: req.headers, ip: req.ip }, html).then(
        (page) => {
          if (!page) {
            res.status(MALFORMED_HOST.status);
            res.setHeader('Content-Type', MALFORMED_HOST.contentType);
            return send(MALFORMED_HOST.body);
          }
          applyHeaders(res, page.headers);
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          send(page.html);
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
  code(status: number): unknown;
  getHeader(name: string): unknown;
  header(name: string, value: string | string[]): unknown;
  removeHeader(name: string): unknown;
}

/** Fastify: `gatehouseFastify(app, { client })` adds an onSend hook for HTML answers (to the routes of `app`'s encapsulation context). */
export function gatehouseFastify(app: FastifyLike, options: EnforcementOptions): void {
  const enforcer = new PaywallEnforcer(options);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || typeof payload !== 'string' || !isHtml(String(reply.getHeader('content-type') ?? ''))) return payload;
    const line = { protocol: request.protocol, host: request.host, target: request.url };
    const page = await enforcer.enforceRequest(line, { headers: request.headers, ip: request.ip }, payload);
    reply.removeHeader('content-length');
    if (!page) {
      reply.code(MALFORMED_HOST.status);
      reply.header('content-type', MALFORMED_HOST.contentType);
      return MALFORMED_HOST.body;
    }
    for (const [name, value] of Object.entries(page.headers)) reply.header(name, value);
    return page.html;
  });
}

/** Node's Host header, one value (Node already refuses a request with two). */
function hostOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const host = headers['host'];
  return Array.isArray(host) ? host[0] : host;
}

function applyHeaders(res: ExpressResponse, headers: EnforcedPage['headers']): void {
  for (const [name, value] of Object.entries(headers)) {
    if (name !== 'Set-Cookie') {
      res.setHeader(name, value);
      continue;
    }
    const existing = res.getHeader('Set-Cookie');
    res.setHeader('Set-Cookie', [...(Array.isArray(existing) ? existing : existing ? [String(existing)] : []), value]);
  }
}
