import { encodePagePath, normalisePagePath, SHARE_TOKEN_PARAMETER } from '@gatehouse/contracts';

/** What an adapter knows of the request line: the scheme it came in on, its Host, and the request target as received. */
export interface RequestLine {
  protocol: string;
  host: string | undefined;
  /** `/path?query` (origin-form), or `http://host/path?query` (absolute-form, whose authority then names the host). */
  target: string;
}

/** A host name, an IPv4 address or a bracketed IPv6 address, and an optional port: nothing else may ride in on a Host header. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_.])?)(?::\d{1,5})?$/;
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)/i;

/** `publicOrigin` as an origin (`https://news.example`); throws at start-up for anything else. */
export function checkedOrigin(publicOrigin: string): string {
  let url: URL | null = null;
  try {
    url = new URL(publicOrigin);
  } catch {
    // described below
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new Error(`Gatehouse: publicOrigin must be an origin such as https://news.example, not ${JSON.stringify(publicOrigin)}.`);
  }
  return url.origin;
}

/**
 * The absolute URL a request asked for: its path and query set on `publicOrigin` when given, else
 * on the origin its own Host names (the authority of an absolute-form target first, RFC 9112
 * 3.2.2). Null when that host is malformed (`localhost#`, `localhost/free?x=`, empty): refuse the
 * request. The path is set as a path, never parsed as a URL, so `//elsewhere/…` stays on the origin.
 */
export function requestedUrl(line: RequestLine, publicOrigin: string | undefined): string | null {
  let target = line.target;
  let host = line.host;
  const absolute = ABSOLUTE_FORM.exec(target);
  if (absolute) {
    host = absolute[1];
    target = target.slice(absolute[0].length);
  }
  const origin = publicOrigin ?? originOf(line.protocol, host);
  if (!origin) return null;
  const url = new URL(origin);
  const end = target.search(/[?#]/);
  url.pathname = end === -1 ? target : target.slice(0, end);
  url.search = end === -1 || target[end] === '#' ? '' : target.slice(end).split('#')[0];
  return url.href;
}

function originOf(protocol: string, host: string | undefined): string | null {
  if (!host || !HOST.test(host)) return null;
  try {
    return new URL(`${protocol.replace(/:$/, '') === 'https' ? 'https' : 'http'}://${host}`).origin;
  } catch {
    // a port above 65535
    return null;
  }
}

/** The page an access check asks about: the page path the URL names on its origin, and the campaign parameters of its query. */
export interface CheckedPage {
  url: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
}

/**
 * `new URL(path, origin)` of the page path the URL names (normalisePagePath: what a router
 * serves), the query left out but for its campaign parameters and a share link's `gh_share`. Null for a path encoded deeper than
 * any router decodes (or no absolute URL at all): no check can be asked for it, and it is decided as denied.
 */
export function checkedPage(url: string): CheckedPage | null {
  let asked: URL;
  try {
    asked = new URL(url);
  } catch {
    // `enforce` called by hand with no absolute URL: nothing can be asked about it.
    return null;
  }
  const path = normalisePagePath(asked.pathname);
  if (path === null) return null;
  // As the browser SDK sends them: cut to what the API accepts.
  const param = (name: string) => asked.searchParams.get(name)?.slice(0, 200) || undefined;
  const checked = new URL(encodePagePath(path), asked.origin);
  // A share link's token opens the page it was made for (docs/access.md#shared-articles).
  const shareToken = asked.searchParams.get(SHARE_TOKEN_PARAMETER);
  if (shareToken && shareToken.length <= 128) checked.searchParams.set(SHARE_TOKEN_PARAMETER, shareToken);
  return { url: checked.href, utmSource: param('utm_source'), utmMedium: param('utm_medium'), utmCampaign: param('utm_campaign') };
}
