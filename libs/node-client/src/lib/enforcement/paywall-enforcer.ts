import type { AccessCheckResult, PaywallPresentation } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { GatehouseApiError } from '../errors';
import type { Gatehouse } from '../gatehouse-client';
import { customerTokenOf, headerReader, parseCookies, TOKEN_COOKIE, VISITOR_COOKIE, type RequestHeaders } from '../request-headers';
import { hasPaidRegion, markPaidRegions, PAID_CLASS, removePaidRegions, withStructuredData } from './paid-regions';
import { checkedOrigin, checkedPage, requestedUrl, type RequestLine } from './page-url';

export { customerTokenOf, parseCookies, TOKEN_COOKIE, VISITOR_COOKIE };
export type { RequestLine };

/** What the enforcer needs of an incoming request, whatever the framework. */
export interface PageRequest {
  /** The page's absolute URL, as the reader asked for it (`enforcer.pageUrl` builds it from the request line). */
  url: string;
  headers: RequestHeaders;
  /** The reader's address as this server sees it. */
  ip?: string;
}

export interface EnforcementOptions {
  /** A client with the publishable key (access checks refuse secret keys). */
  client: Gatehouse;
  /**
   * The site's origin (e.g. `https://news.example`): every page URL is built on it, whatever Host
   * the request names. Set it in production; without it the request's Host is used, after
   * checking it is a host name (a malformed one is refused with 400).
   */
  publicOrigin?: string;
  visitorCookie?: string;
  tokenCookie?: string;
  /** Give a visitor without the visitor cookie one (first-party, a year), so meters count without JavaScript. Default true. */
  issueVisitorCookie?: boolean;
  /** What stands in for a removed paid region; it must carry the class `gatehouse-paid`. */
  paywallHtml?: (decision: AccessCheckResult) => string;
  /** schema.org type of the page in the structured data. Default `NewsArticle`; false: no structured data. */
  structuredDataType?: string | false;
  /**
   * When the access check cannot be made (no answer, 429, 5xx): `deny` (default) removes the paid
   * regions, `grant` keeps them. A check the API refuses (a URL not of the publication) always denies.
   */
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

/** The element that shows the offer of a rule of each presentation (docs/elements.md). */
const OFFER_ELEMENTS: Record<PaywallPresentation, string> = {
  modal: 'gatehouse-paywall-modal',
  inline: 'gatehouse-inline-paywall',
  sticky_bar: 'gatehouse-sticky-bar',
  content_lock: 'gatehouse-content-lock',
};

/** The offer's element for the denying rule's presentation (the inline paywall when no rule is known), standing where the paid text was. */
export function offerElement(decision: AccessCheckResult | null): string {
  const tag = OFFER_ELEMENTS[decision?.paywallRule?.presentation ?? 'inline'] ?? OFFER_ELEMENTS.inline;
  return `<${tag} class="${PAID_CLASS}" data-gatehouse="paywall"></${tag}>`;
}

/** How a check ended when it gave no decision: no answer to be had, or the API refused what was asked. */
type NoDecision = 'unavailable' | 'refused';

/**
 * Server-side paywall enforcement: asks the access check for the page's reader and, when denied,
 * removes the paid regions before the page leaves the server. Frameworks adapt it (Express,
 * Fastify, fetch-API handlers); each builds the page URL with `pageUrl` and calls `enforce`.
 */
export class PaywallEnforcer {
  private readonly visitorCookie: string;
  private readonly tokenCookie: string;
  private readonly publicOrigin: string | undefined;

  constructor(private readonly options: EnforcementOptions) {
    this.visitorCookie = options.visitorCookie ?? VISITOR_COOKIE;
    this.tokenCookie = options.tokenCookie ?? TOKEN_COOKIE;
    this.publicOrigin = options.publicOrigin === undefined ? undefined : checkedOrigin(options.publicOrigin);
  }

  /**
   * The page's absolute URL: the request's path and query on `publicOrigin`, else on the origin
   * of the request's Host. Null when the Host is malformed: answer 400 (`refusal`).
   */
  pageUrl(line: RequestLine): string | null {
    return requestedUrl(line, this.publicOrigin);
  }

  async enforce(request: PageRequest, html: string): Promise<EnforcedPage> {
    return hasPaidRegion(html) ? this.cut(request, html) : untouched(html);
  }

  /**
   * `enforce` for a request as an adapter sees it. Null when the page has a paid region and the
   * request's Host is malformed: the adapter answers `MALFORMED_HOST` (400) instead.
   */
  async enforceRequest(line: RequestLine, request: Omit<PageRequest, 'url'>, html: string): Promise<EnforcedPage | null> {
    if (!hasPaidRegion(html)) return untouched(html);
    const url = this.pageUrl(line);
    return url === null ? null : this.cut({ ...request, url }, html);
  }

  private async cut(request: PageRequest, html: string): Promise<EnforcedPage> {
    const header = headerReader(request.headers);
    const cookies = parseCookies(header('cookie'));
    const headers: Record<string, string> = {};
    let visitorId = cookies[this.visitorCookie];
    if (!visitorId && this.options.issueVisitorCookie !== false) {
      visitorId = randomUUID();
      headers['Set-Cookie'] = `${this.visitorCookie}=${visitorId}; Path=/; Max-Age=31536000; SameSite=Lax${request.url.startsWith('https:') ? '; Secure' : ''}`;
    }
    const outcome = await this.decide(request, header, visitorId);
    const decision = typeof outcome === 'string' ? null : outcome;
    if (decision && FREE_REASONS.has(decision.reason)) return { html, headers, decision };

    const granted = decision ? decision.granted : outcome === 'unavailable' && this.options.onCheckFailure === 'grant';
    let page = granted ? markPaidRegions(html) : removePaidRegions(html, (this.options.paywallHtml ?? offerElement)(decision ?? FAILED_CHECK));
    if (this.options.structuredDataType !== false) page = withStructuredData(page, this.options.structuredDataType ?? 'NewsArticle');
    return { html: page, headers: { ...headers, ...(granted ? CACHE_HEADERS.granted : CACHE_HEADERS.denied) }, decision };
  }

  /**
   * The reader's token (the bearer's, else the token cookie's) goes along only once it verified
   * here against the JWKS: a forged or expired one reads as no token, as the browser SDK does
   * after a failed refresh, and costs no call.
   */
  private async decide(
    request: PageRequest,
    header: (name: string) => string | undefined,
    userId: string | undefined,
  ): Promise<AccessCheckResult | NoDecision> {
    const page = checkedPage(request.url);
    if (!page) return 'refused';
    const given = customerTokenOf(request.headers, this.tokenCookie);
    const token = given && (await this.usableToken(given));
    const ask = (accessToken: string | undefined) =>
      this.options.client.access.check({
        ...page,
        userId,
        accessToken,
        referrer: header('referer')?.slice(0, 2048),
        userAgent: header('user-agent'),
        clientIp: request.ip,
      });
    try {
      return await ask(token || undefined);
    } catch (error) {
      if (!(error instanceof GatehouseApiError)) return 'unavailable';
      // Verified here, refused there (a key retired in between): decided as for a visitor.
      if (token && error.status === 401) return ask(undefined).catch((again: unknown) => noDecision(again));
      return noDecision(error);
    }
  }

  private async usableToken(token: string): Promise<string | null> {
    try {
      return (await this.options.client.auth.verifyToken(token)) ? token : null;
    } catch {
      // The keys cannot be fetched now: the access check verifies the token itself.
      return token;
    }
  }
}

function noDecision(error: unknown): NoDecision {
  const status = error instanceof GatehouseApiError ? error.status : 0;
  return status >= 400 && status < 500 && status !== 429 ? 'refused' : 'unavailable';
}

const untouched = (html: string): EnforcedPage => ({ html, headers: {}, decision: null });

/** The answer to a request for a paid page whose Host names no host (`localhost#`, `localhost/free?x=`): RFC 9457 problem details. */
export const MALFORMED_HOST = {
  status: 400,
  contentType: 'application/problem+json',
  body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, code: 'validation_failed', detail: 'The Host header does not name a host.' }),
} as const;

const FAILED_CHECK: AccessCheckResult = { granted: false, reason: 'blocked', customerId: null };
