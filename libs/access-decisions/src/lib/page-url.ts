import { MAX_PERCENT_ENCODING_LAYERS, normalisePagePath, pageHostOf, type CheckedPage } from '@gatehouse/contracts';
import { AppError, hostInDomains } from '@gatehouse/platform';

export { hostInDomains };

/** The longest URL path an access check matches; a longer one is refused. */
export const MAX_MATCHED_PATH_LENGTH = 1_024;

/** A page of the publication's site, as access checks, meters and events see it: its host and path (`CheckedPage`), and what is derived from them. */
export interface PageAddress extends CheckedPage {
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
  return pageAddressOf({ hostname: pageHostOf(url), path });
}

/** The page of a host and path read from a URL (`parsePageUrl`), as an access check's request carries it. */
export function pageAddressOf({ hostname, path }: CheckedPage): PageAddress {
  const matchPath = path.toLowerCase();
  return { hostname, path, matchPath, key: `${hostname}${matchPath}` };
}

/**
 * The page an access check or a share link names, refused as a check refuses it: 400 naming
 * `field` unless an absolute http(s) URL with a path of at most MAX_MATCHED_PATH_LENGTH
 * characters, 403 url_not_in_publication unless on one of the publication's domains.
 */
export function checkedPageOf(raw: string, domains: readonly string[], field = 'url'): PageAddress {
  const page = parsePageUrl(raw, field);
  requirePublicationHost(page, domains);
  if (page.path.length > MAX_MATCHED_PATH_LENGTH) throw AppError.invalid(field, `must have a path of at most ${MAX_MATCHED_PATH_LENGTH} characters`);
  return page;
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
