import { withoutTrailingSlash } from './page-url';

/*
 * The limits bound what one check can cost, whatever a tenant writes (docs/security.md, "Paywall
 * globs"): every glob of a publication is matched in one pass whose cost grows with the path's
 * length times the publication's glob characters.
 */
export const MAX_GLOB_LENGTH = 200;
/** `*`, `?` and `**` together. */
export const MAX_GLOB_WILDCARDS = 16;
export const MAX_PAYWALLS_PER_PUBLICATION = 50;
export const MAX_GLOBS_PER_PUBLICATION = 200;
export const MAX_GLOB_CHARACTERS_PER_PUBLICATION = 10_000;
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
 * Bit-parallel position automata (shift-and): bit p of a state is "position p is the last one
 * matched". Each automaton lays its patterns out one after another, each behind a start position
 * that nothing matches, so a shift never carries one pattern into the next and every pattern is
 * anchored at the start of its input. A position may be optional and repeatable (`**` over
 * segments, `*` over characters): it then matches anything, keeps itself, and lets what follows
 * start without it.
 */
class Positions {
  readonly words: number;
  readonly starts: Uint32Array;
  readonly finals: number[] = [];
  /** Optional, repeatable positions that match anything. */
  readonly stars: Uint32Array;

  constructor(readonly size: number) {
    this.words = Math.max(1, Math.ceil(size / 32));
    this.starts = new Uint32Array(this.words);
    this.stars = new Uint32Array(this.words);
  }

  mask(): Uint32Array {
    return new Uint32Array(this.words);
  }

  /** The state before any input: each start, and whatever stars follow it. */
  initial(): Uint32Array {
    const state = this.starts.slice();
    this.close(state);
    return state;
  }

  /** One step on an input that the positions in `matching` accept (stars accept anything). */
  step(state: Uint32Array, matching: Uint32Array): void {
    const { words, stars } = this;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const word = state[w];
      state[w] = (((word << 1) | carry) & (matching[w] | stars[w])) | (word & stars[w]);
      carry = word >>> 31;
    }
    this.close(state);
  }

  /** A star that follows a live position is live too (it may match nothing); stars never follow stars. */
  private close(state: Uint32Array): void {
    const { words, stars } = this;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const word = state[w];
      state[w] = word | (((word << 1) | carry) & stars[w]);
      carry = word >>> 31;
    }
  }
}

const set = (mask: Uint32Array, position: number) => (mask[position >>> 5] |= 1 << (position & 31));
const has = (mask: Uint32Array, position: number) => (mask[position >>> 5] & (1 << (position & 31))) !== 0;

/** Which of a set of globs match a path: `matches(i)` for glob `i` of the list it was compiled from. */
export type GlobMatches = (glob: number) => boolean;

/**
 * A list of globs (see globProblem) compiled into one matcher of URL paths; trailing slashes are
 * ignored on both sides. No regular expression and no backtracking: a path costs one pass over its
 * segments for the glob structure (`**`), and one pass over the characters of each segment for the
 * globs' wildcard segments (`*`, `?`), each a few word operations per 32 glob positions, whatever
 * the globs are. A literal segment is one hash lookup. When every glob is literal segments, maybe
 * ending in `**` (the common case), the automaton is not read: each glob is a comparison of strings.
 */
export class GlobSet {
  /** Over path segments: one position per glob segment. */
  private readonly segments: Positions;
  /** The segment positions that a literal path segment matches, by that segment's text. */
  private readonly literals = new Map<string, Uint32Array>();
  /** Over the characters of one path segment: one position per character of each wildcard segment of a glob. */
  private readonly characters: Positions;
  private readonly byCharacter = new Map<number, Uint32Array>();
  /** Characters that are `?`: they match any one character. */
  private readonly anyCharacter: Uint32Array;
  /** For wildcard pattern `i`, the segment position it stands for. */
  private readonly wildcardPositions: number[] = [];
  /** The last character position of each wildcard pattern, and which pattern it ends. */
  private readonly patternEnds: Uint32Array;
  private readonly patternOf: Int32Array;
  /** The characters' state before a segment, and the one reused while reading it. */
  private readonly charactersInitial: Uint32Array;
  private readonly charactersState: Uint32Array;
  private readonly wildcardMask: Uint32Array;
  private readonly globFinals: number[];
  /** When every glob is literal segments, maybe ending in `**`: each glob as plain strings to compare (see match). */
  private readonly literalPrefixes: LiteralPrefix[] | null;

  constructor(globs: readonly string[]) {
    const prefixes = globs.map(literalPrefixOf);
    this.literalPrefixes = prefixes.every((prefix) => prefix !== null) ? prefixes : null;
    const parsed = globs.map(globSegmentsOf);
    this.segments = new Positions(parsed.reduce((n, segments) => n + 1 + segments.length, 0));
    const wildcards: string[][] = [];
    let at = 0;
    for (const segments of parsed) {
      set(this.segments.starts, at++);
      for (const segment of segments) {
        if (segment === '**') set(this.segments.stars, at);
        else if (!/[*?]/.test(segment)) set(this.literalMask(segment, this.segments), at);
        else {
          this.wildcardPositions.push(at);
          wildcards.push(segment.split('*'));
        }
        at++;
      }
      this.segments.finals.push(at - 1);
    }
    this.globFinals = this.segments.finals;
    this.wildcardMask = this.segments.mask();
    for (const position of this.wildcardPositions) set(this.wildcardMask, position);

    // `a*b?c` is the positions a, *, b, ?, c: the star optional and repeatable.
    const size = wildcards.reduce((n, pieces) => n + 1 + pieces.join('').length + pieces.length - 1, 0);
    this.characters = new Positions(size);
    this.anyCharacter = this.characters.mask();
    at = 0;
    for (const pieces of wildcards) {
      set(this.characters.starts, at++);
      pieces.forEach((piece, i) => {
        if (i > 0) set(this.characters.stars, at++);
        for (let c = 0; c < piece.length; c++, at++) {
          const code = piece.charCodeAt(c);
          if (code === QUESTION) set(this.anyCharacter, at);
          else set(this.characterMask(code), at);
        }
      });
      this.characters.finals.push(at - 1);
    }
    // A character's mask also holds the `?` positions, which match it too.
    for (const mask of this.byCharacter.values()) for (let w = 0; w < mask.length; w++) mask[w] |= this.anyCharacter[w];
    this.charactersInitial = this.characters.initial();
    this.charactersState = this.characters.mask();
    this.patternEnds = this.characters.mask();
    this.patternOf = new Int32Array(this.characters.size).fill(-1);
    this.characters.finals.forEach((final, i) => {
      set(this.patternEnds, final);
      this.patternOf[final] = i;
    });
  }

  /** The globs that match `path`. */
  match(path: string): GlobMatches {
    // The common shapes (`/premium/**`, `/about`) need no automaton: a comparison or two per glob.
    const prefixes = this.literalPrefixes;
    if (prefixes) {
      const trimmed = withoutTrailingSlash(path);
      return (glob) => {
        const prefix = prefixes[glob] as LiteralPrefix | undefined;
        return prefix !== undefined && (trimmed === prefix.exact || (prefix.under !== null && trimmed.startsWith(prefix.under)));
      };
    }
    const state = this.segments.initial();
    const matching = this.segments.mask();
    for (const segment of withoutTrailingSlash(path).split('/').slice(1)) {
      const literal = this.literals.get(segment);
      if (literal) matching.set(literal);
      else matching.fill(0);
      if (this.mayEnterWildcard(state)) this.matchWildcards(segment, matching);
      this.segments.step(state, matching);
    }
    return (glob) => has(state, this.globFinals[glob]);
  }

  /** Whether a wildcard segment position follows a live position: only then are the path segment's characters read. */
  private mayEnterWildcard(state: Uint32Array): boolean {
    let carry = 0;
    for (let w = 0; w < state.length; w++) {
      if ((((state[w] << 1) | carry) & this.wildcardMask[w]) !== 0) return true;
      carry = state[w] >>> 31;
    }
    return false;
  }

  /** Marks in `matching` the wildcard segment positions whose pattern matches the whole of `segment`. */
  private matchWildcards(segment: string, matching: Uint32Array): void {
    const { characters, charactersState: state } = this;
    state.set(this.charactersInitial);
    for (let c = 0; c < segment.length; c++) characters.step(state, this.byCharacter.get(segment.charCodeAt(c)) ?? this.anyCharacter);
    for (let w = 0; w < state.length; w++) {
      let ended = state[w] & this.patternEnds[w];
      while (ended !== 0) {
        const bit = 31 - Math.clz32(ended);
        ended &= ~(1 << bit);
        set(matching, this.wildcardPositions[this.patternOf[w * 32 + bit]]);
      }
    }
  }

  private literalMask(segment: string, positions: Positions): Uint32Array {
    let mask = this.literals.get(segment);
    if (!mask) this.literals.set(segment, (mask = positions.mask()));
    return mask;
  }

  private characterMask(code: number): Uint32Array {
    let mask = this.byCharacter.get(code);
    if (!mask) this.byCharacter.set(code, (mask = this.characters.mask()));
    return mask;
  }
}
const QUESTION = '?'.charCodeAt(0);

/** A glob of literal segments as strings: the path it names, and what starts every path below it when it ends in `**`. */
interface LiteralPrefix {
  exact: string;
  under: string | null;
}

/**
 * `/a/b` matches the path `/a/b` only; `/a/b/**` also every path that starts `/a/b/` (`**` may be
 * no segment at all); `/**` every path. Null for a glob with `*` or `?` within a segment, or an
 * empty segment: the automaton reads those.
 */
function literalPrefixOf(glob: string): LiteralPrefix | null {
  const trimmed = withoutTrailingSlash(glob);
  if (trimmed === '/') return { exact: '/', under: null };
  const literal = LITERAL_SEGMENTS.exec(trimmed);
  if (!literal) return null;
  const [, exact, deep] = literal;
  return { exact, under: deep ? `${exact}/` : null };
}
const LITERAL_SEGMENTS = /^((?:\/[^/*?]+)*)(\/\*\*)?$/;

/** A glob's segments, trailing slashes ignored (`/` is one empty segment); consecutive `**` segments are one. */
function globSegmentsOf(glob: string): string[] {
  const segments = withoutTrailingSlash(glob).split('/').slice(1);
  return segments.filter((segment, i) => segment !== '**' || segments[i - 1] !== '**');
}
