import type { AccessCheckResult } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import type { Gatehouse } from '../gatehouse-client';
import { hasPaidRegion, markPaidRegions, PAID_CLASS, removePaidRegions, withStructuredData } from './paid-regions';

/** The cookie the SDK keeps its first-party visitor id in (the same id as in its localStorage). */
export const VISITOR_COOKIE = 'gatehouse_visitor';
/** The cookie that may carry a reader's customer access token to the publisher's server. */
export const TOKEN_COOKIE = 'gatehouse_token';

/** What the enforcer needs of an incoming request, whatever the framework. */
export interface PageRequest {
  /** The page's absolute URL, as the reader asked for it. */
  url: string;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  /** The reader's address as this server sees it. */
  ip?: string;
}

export interface EnforcementOptions {
  /** A client with the publishable key (access checks refuse secret keys). */
  client: Gatehouse;
  /** The site's public origin (e.g. `https://news.example`) when the server sits behind a proxy; else taken from the request. */
  publicOrigin?: string;
  visitorCookie?: string;
  tokenCookie?: string;
  /** Give a visitor without the visitor cookie one (first-party, a year), so meters count without JavaScript. Default true. */
  issueVisitorCookie?: boolean;
  /** What stands in for a removed paid region; it must carry the class `gatehouse-paid`. */
  paywallHtml?: (decision: AccessCheckResult) => string;
  /** schema.org type of the page in the structured data. Default `NewsArticle`; false: no structured data. */
  structuredDataType?: string | false;
  /** When the access check fails (network, 5xx): `deny` (default) removes the paid regions, `grant` keeps them. */
  onCheckFailure?: 'deny' | 'grant';
}

export interface EnforcedPage {
  html: string;
  /** Headers to set on the response (they replace the handler's own of the same name). */
  headers: Record<string, string>;
  decision: AccessCheckResult | null;
}

/** Access reasons under which the page is free to read: no paywall applies, or only a dismissible prompt. */
const FREE_REASONS = new Set(['no_rule', 'soft']);

/** The headers of a page a paywall decided (docs/server.md, "Caching"). */
export const CACHE_HEADERS = {
  /** The full text for one reader: nobody else may get it from any cache. */
  granted: { 'Cache-Control': 'private, no-store', Vary: 'Cookie, Authorization' },
  /** The page without its paid text: never from a shared cache (the next reader may be a subscriber), revalidated by the browser. */
  denied: { 'Cache-Control': 'private, no-cache', Vary: 'Cookie, Authorization' },
} as const;

const defaultPaywall = () => `<gatehouse-inline-paywall class="${PAID_CLASS}" data-gatehouse="paywall"></gatehouse-inline-paywall>`;

/**
 * Server-side paywall enforcement: asks the access check for the page's reader and, when denied,
 * removes the paid regions before the page leaves the server. Frameworks adapt it (Express,
 * Fastify, fetch-API handlers); each calls `enforce` with the request and the HTML.
 */
export class PaywallEnforcer {
  private readonly visitorCookie: string;
  private readonly tokenCookie: string;

  constructor(private readonly options: EnforcementOptions) {
    this.visitorCookie = options.visitorCookie ?? VISITOR_COOKIE;
    this.tokenCookie = options.tokenCookie ?? TOKEN_COOKIE;
  }

  /** The page's absolute URL: `publicOrigin` when given, else the origin the request names. */
  pageUrl(requestOrigin: string, pathAndQuery: string): string {
    return `${(this.options.publicOrigin ?? requestOrigin).replace(/\/+$/, '')}${pathAndQuery}`;
  }

  async enforce(request: PageRequest, html: string): Promise<EnforcedPage> {
    if (!hasPaidRegion(html)) return { html, headers: {}, decision: null };
    const cookies = parseCookies(request.headers['cookie']);
    const headers: Record<string, string> = {};
    let visitorId = cookies[this.visitorCookie];
    if (!visitorId && this.options.issueVisitorCookie !== false) {
      visitorId = randomUUID();
      headers['Set-Cookie'] = `${this.visitorCookie}=${visitorId}; Path=/; Max-Age=31536000; SameSite=Lax${request.url.startsWith('https:') ? '; Secure' : ''}`;
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers['authorization'] ?? '')?.[1];
    const decision = await this.decide(request, bearer ?? cookies[this.tokenCookie], visitorId);
    if (decision && FREE_REASONS.has(decision.reason)) return { html, headers, decision };

    const granted = decision?.granted ?? this.options.onCheckFailure === 'grant';
    let page = granted ? markPaidRegions(html) : removePaidRegions(html, (this.options.paywallHtml ?? defaultPaywall)(decision ?? FAILED_CHECK));
    if (this.options.structuredDataType !== false) page = withStructuredData(page, this.options.structuredDataType ?? 'NewsArticle');
    return { html: page, headers: { ...headers, ...(granted ? CACHE_HEADERS.granted : CACHE_HEADERS.denied) }, decision };
  }

  private async decide(request: PageRequest, accessToken: string | undefined, userId: string | undefined): Promise<AccessCheckResult | null> {
    const ask = (token: string | undefined) =>
      this.options.client.access.check({
        url: request.url,
        userId,
        accessToken: token,
        referrer: request.headers['referer'],
        userAgent: request.headers['user-agent'],
        clientIp: request.ip,
      });
    try {
      return await ask(accessToken);
    } catch (error) {
      // An expired or foreign token reads as a visitor without one, as the browser SDK would after a failed refresh.
      if (accessToken && (error as { status?: number }).status === 401) return ask(undefined).catch(() => null);
      return null;
    }
  }
}

const FAILED_CHECK: AccessCheckResult = { granted: false, reason: 'blocked', customerId: null };

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const name = part.slice(0, at).trim();
    if (!(name in cookies)) cookies[name] = decodeURIComponent(part.slice(at + 1).trim());
  }
  return cookies;
}
