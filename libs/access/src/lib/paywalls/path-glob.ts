import { withoutTrailingSlash } from '../shared/page-url';

export const MAX_GLOB_LENGTH = 500;
const FORBIDDEN = /[\s[\]{}\\#]/;

/**
 * Why `glob` is not a usable path glob, or null when it is. A glob is an absolute path where `*`
 * matches within one segment, `**` (a whole segment) any number of segments, `?` one character.
 */
export function globProblem(glob: string): string | null {
  if (!glob.startsWith('/')) return 'must start with /';
  if (glob.length > MAX_GLOB_LENGTH) return `must be at most ${MAX_GLOB_LENGTH} characters`;
  if (FORBIDDEN.test(glob)) return 'must not contain spaces or any of [ ] { } \\ #';
  if (glob.split('/').some((segment) => segment.includes('**') && segment !== '**')) return '** must be a whole path segment, as in /premium/**';
  return null;
}

/** Compiles a valid glob (see globProblem) to a matcher of URL paths; trailing slashes are ignored on both sides. */
export function compileGlob(glob: string): (path: string) => boolean {
  const segments = withoutTrailingSlash(glob).split('/').slice(1);
  const body = segments.map((segment) => (segment === '**' ? '(?:/.*)?' : `/${segmentPattern(segment)}`)).join('');
  const pattern = new RegExp(`^${body}$`);
  return (path) => pattern.test(withoutTrailingSlash(path));
}

function segmentPattern(segment: string): string {
  return segment.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
}

/** Memoised compilation: paywalls are read on every check, their globs compiled once per process. */
const compiled = new Map<string, (path: string) => boolean>();
const MAX_COMPILED = 10_000;

export function globMatches(glob: string, path: string): boolean {
  let matcher = compiled.get(glob);
  if (!matcher) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    matcher = compileGlob(glob);
    compiled.set(glob, matcher);
  }
  return matcher(path);
}
