/*
 * What path a page URL names, decided once for every place that gates by path: the access check
 * (paywall globs, meters, segment conditions) and the publisher's server (`@gatehouse/node`, which
 * bundles this file). A router serves `/premium%2Fstory`, `/%70remium/story`, `//premium/story`,
 * `/x/../premium/story` or `/premium./story` as the page `/premium/story`, so the paywall must see
 * that path too; reading it the widest way any of them might errs towards gating, never leaking.
 */

/** Layers of percent-encoding undone at most; a path still encoded after them is refused. */
export const MAX_PERCENT_ENCODING_LAYERS = 8;

/**
 * The page path `rawPath` names: percent-encoding undone until nothing is left of it (double
 * encoding hides nothing; `%2F` separates segments), `\` read as `/`, empty segments (duplicate
 * slashes) dropped, `.` and `..` resolved, trailing dots of a segment dropped, no trailing slash.
 * Case is kept (the access check compares paths case-insensitively). `rawPath` is the path alone,
 * without query or fragment. Null for a path encoded more than MAX_PERCENT_ENCODING_LAYERS deep:
 * no router reads that, and a caller refuses it.
 */
export function normalisePagePath(rawPath: string): string | null {
  if (isNormalPath(rawPath)) return rawPath;
  let path = rawPath;
  for (let layer = 0; path.includes('%'); layer++) {
    const decoded = decodePercentRuns(path);
    if (decoded === path) break;
    if (layer === MAX_PERCENT_ENCODING_LAYERS) return null;
    path = decoded;
  }
  const segments: string[] = [];
  for (const raw of path.replace(/\\/g, '/').split('/')) {
    if (raw === '' || raw === '.') continue;
    if (raw === '..') {
      segments.pop();
      continue;
    }
    const segment = withoutTrailingDots(raw);
    if (segment !== '') segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** A page of a publication's site as read from its URL: the host (`pageHostOf`) and the path (`normalisePagePath`). */
export interface CheckedPage {
  /** Lower-case host name, without port or a trailing dot. */
  hostname: string;
  /** The page path the URL names (`normalisePagePath`: decoded, dot segments resolved, no duplicate or trailing slash). */
  path: string;
}

/** The host of a page URL: lower case (as URL reads it), without the trailing dot of the root of DNS (`news.example.` is `news.example`). */
export function pageHostOf(url: URL): string {
  return url.hostname.replace(/\.$/, '');
}

/**
 * One page as meters, share links and single-article purchases count it: the host and the
 * normalised path in lower case; query and fragment ignored. Null for a path that is refused.
 */
export function pageKeyOf(url: URL): string | null {
  const path = normalisePagePath(url.pathname);
  return path === null ? null : `${pageHostOf(url)}${path.toLowerCase()}`;
}

/** The URL path of a normalised page path: each segment percent-encoded, so it reads back as itself. */
export function encodePagePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const utf8 = new TextDecoder();

/** One layer of percent-encoding undone; bytes that are no UTF-8 read as U+FFFD, as browsers do. */
function decodePercentRuns(text: string): string {
  return text.replace(PERCENT_RUN, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    return utf8.decode(bytes);
  });
}

/**
 * Whether the path is already as `normalisePagePath` would answer it (most pages' are): nothing
 * encoded, no `\`, no empty segment or trailing slash, no segment ending in a dot (`.` and `..` do).
 */
function isNormalPath(path: string): boolean {
  if (path === '/') return true;
  if (path.charCodeAt(0) !== SLASH) return false;
  let previous = SLASH;
  for (let i = 1; i < path.length; i++) {
    const char = path.charCodeAt(i);
    if (char === PERCENT || char === BACKSLASH || (char === SLASH && (previous === SLASH || previous === DOT))) return false;
    previous = char;
  }
  return previous !== SLASH && previous !== DOT;
}

function withoutTrailingDots(segment: string): string {
  let end = segment.length;
  while (end > 0 && segment.charCodeAt(end - 1) === DOT) end--;
  return segment.slice(0, end);
}
/** The characters a path is read by. */
const [SLASH, PERCENT, BACKSLASH, DOT] = ['/', '%', '\\', '.'].map((char) => char.charCodeAt(0));
