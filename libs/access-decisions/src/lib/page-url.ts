import { MAX_PERCENT_ENCODING_LAYERS, normalisePagePath, pageHostOf } from '@gatehouse/contracts';
import { AppError, hostInDomains } from '@gatehouse/platform';

export { hostInDomains };

/** A page of the publication's site, as access checks, meters and events see it. */
export interface PageAddress {
  /** Lower-case host name, without port or a trailing dot. */
  hostname: string;
  /** The page path the URL names (`normalisePagePath`: decoded, dot segments resolved, no duplicate or trailing slash). */
  path: string;
  /** What paywall globs are matched against: the path in lower case, as routers that ignore case serve it. */
  matchPath: string;
  /** What a meter counts as one URL: host and path (`matchPath`), query and fragment ignored (`pageKeyOf`). */
  key: string;
}

/** 400 naming `field` unless `raw` is an absolute http(s) URL (decisions E1). */
export function parsePageUrl(raw: string, field: string): PageAddress {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw AppError.invalid(field, 'must be an absolute http(s) URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw AppError.invalid(field, 'must be an absolute http(s) URL');
  }
  const path = normalisePagePath(url.pathname);
  if (path === null) throw AppError.invalid(field, `must not be percent-encoded more than ${MAX_PERCENT_ENCODING_LAYERS} times over`);
  const hostname = pageHostOf(url);
  const matchPath = path.toLowerCase();
  return { hostname, path, matchPath, key: `${hostname}${matchPath}` };
}

/** `/a/b/` and `/a/b` are one page; `/` stays `/`. */
export function withoutTrailingSlash(path: string): string {
  // A loop, not /\/+$/: that regular expression is quadratic on a long run of inner slashes.
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === SLASH) end--;
  return end === path.length ? path : path.slice(0, end) || '/';
}
const SLASH = '/'.charCodeAt(0);

/** 403 url_not_in_publication unless the page's host is one of the publication's domains. */
export function requirePublicationHost(page: PageAddress, domains: readonly string[]): void {
  if (!hostInDomains(page.hostname, domains)) {
    throw new AppError('url_not_in_publication', `${page.hostname} is not a domain of this publication.`);
  }
}
