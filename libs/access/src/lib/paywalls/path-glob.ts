import { withoutTrailingSlash } from '../shared/page-url';

export const MAX_GLOB_LENGTH = 500;
/** `*`, `?` and `**` together: each one is a place the matcher may have to look further. */
export const MAX_GLOB_WILDCARDS = 16;
const FORBIDDEN = /[\s[\]{}\\#]/;

/**
 * Why `glob` is not a usable path glob, or null when it is. A glob is an absolute path where `*`
 * matches within one segment, `**` (a whole segment) any number of segments, `?` one character.
 */
export function globProblem(glob: string): string | null {
  if (!glob.startsWith('/')) return 'must start with /';
  if (glob.length > MAX_GLOB_LENGTH) return `must be at most ${MAX_GLOB_LENGTH} characters`;
  if (FORBIDDEN.test(glob)) return 'must not contain spaces or any of [ ] { } \\ #';
  const segments = glob.split('/');
  if (segments.some((segment) => segment.includes('**') && segment !== '**')) return '** must be a whole path segment, as in /premium/**';
  const wildcards = segments.reduce((n, segment) => n + (segment === '**' ? 1 : countWildcards(segment)), 0);
  if (wildcards > MAX_GLOB_WILDCARDS) return `must have at most ${MAX_GLOB_WILDCARDS} wildcards (*, ** and ?)`;
  return null;
}

function countWildcards(segment: string): number {
  let n = 0;
  for (const c of segment) if (c === '*' || c === '?') n++;
  return n;
}

/**
 * One glob segment: the literal pieces between its `*`s (`?` inside a piece stands for any one
 * character). `news-*.html` → ['news-', '.html'].
 */
type SegmentPattern = string[];
/** A glob: runs of segment patterns, separated by `**`. */
type GlobPattern = SegmentPattern[][];

/**
 * Compiles a valid glob (see globProblem) to a matcher of URL paths; trailing slashes are ignored
 * on both sides. No regular expression and no backtracking: stars are matched leftmost-first,
 * which is exact for patterns whose only repetition is a star, so a check costs at most the
 * path's length times the glob's (both bounded), whatever the tenant wrote.
 */
export function compileGlob(glob: string): (path: string) => boolean {
  const runs: GlobPattern = [[]];
  for (const segment of withoutTrailingSlash(glob).split('/').slice(1)) {
    if (segment === '**') runs.push([]);
    else runs[runs.length - 1].push(segment.split('*'));
  }
  return (path) => matchStarred(runs, withoutTrailingSlash(path).split('/').slice(1), matchRun);
}

/**
 * Whether `items` is `runs[0]`, anything, `runs[1]`, anything, ..., `runs[k]` — the shape of both a
 * segment (`*` between pieces of text) and a glob (`**` between runs of segments). The first run
 * is anchored at the start and the last at the end; those between are taken at their leftmost place.
 */
function matchStarred<R extends { length: number }, T extends { length: number }>(
  runs: R[],
  items: T,
  matchAt: (run: R, items: T, at: number) => boolean,
): boolean {
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (runs.length === 1) return items.length === first.length && matchAt(first, items, 0);
  if (items.length < first.length + last.length) return false;
  if (!matchAt(first, items, 0) || !matchAt(last, items, items.length - last.length)) return false;
  let at = first.length;
  const end = items.length - last.length;
  for (let r = 1; r < runs.length - 1; r++) {
    const run = runs[r];
    let found = -1;
    for (let i = at; i + run.length <= end; i++) {
      if (matchAt(run, items, i)) {
        found = i;
        break;
      }
    }
    if (found < 0) return false;
    at = found + run.length;
  }
  return true;
}

/** Glob segments against path segments from `at`. */
function matchRun(run: SegmentPattern[], segments: string[], at: number): boolean {
  for (let i = 0; i < run.length; i++) {
    const pieces = run[i];
    const segment = segments[at + i];
    const matched = pieces.length === 1 ? segment.length === pieces[0].length && matchPiece(pieces[0], segment, 0) : matchStarred(pieces, segment, matchPiece);
    if (!matched) return false;
  }
  return true;
}

/** A piece of literal text, `?` standing for any one character, against `text` from `at`. */
function matchPiece(piece: string, text: string, at: number): boolean {
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (c !== QUESTION && c !== text.charCodeAt(at + i)) return false;
  }
  return true;
}
const QUESTION = '?'.charCodeAt(0);

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
