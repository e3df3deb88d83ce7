/** The cookie the SDK keeps its first-party visitor id in (the same id as in its localStorage). */
export const VISITOR_COOKIE = 'gatehouse_visitor';
/** The first-party cookie in which the browser SDK keeps the signed-in reader's access token for the publisher's server (docs/server.md). */
export const TOKEN_COOKIE = 'gatehouse_token';

/** A request's headers (any case) as Node, Express, Fastify or a fetch `Headers` give them. */
export type RequestHeaders = Record<string, string | string[] | undefined> | Headers;

/** Reads one header by its lower-case name; of a repeated header, the first. */
export function headerReader(headers: RequestHeaders): (name: string) => string | undefined {
  if (typeof (headers as Headers).get === 'function') return (name) => (headers as Headers).get(name) ?? undefined;
  const lower = Object.fromEntries(Object.entries(headers as Record<string, string | string[] | undefined>).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v[0] : v]));
  return (name) => lower[name];
}

/** The request's cookies by name (the first of a name wins); a value that is not valid percent-encoding is kept as sent. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const name = part.slice(0, at).trim();
    if (name in cookies) continue;
    const value = part.slice(at + 1).trim();
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

/** The customer access token a request carries: `Authorization: Bearer …`, else the token cookie the browser SDK keeps. */
export function customerTokenOf(headers: RequestHeaders, tokenCookie: string = TOKEN_COOKIE): string | undefined {
  const header = headerReader(headers);
  return /^Bearer\s+(\S+)$/i.exec(header('authorization') ?? '')?.[1] ?? (parseCookies(header('cookie'))[tokenCookie] || undefined);
}
