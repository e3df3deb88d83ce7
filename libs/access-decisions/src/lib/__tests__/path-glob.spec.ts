import { GlobSet, globProblem } from '../path-glob';

const matches = (glob: string, path: string) => new GlobSet([glob]).match(path)(0);

/** The glob semantics as a regular expression: exact, and fine on the short inputs below. */
function reference(glob: string): RegExp {
  const strip = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') || '/' : p);
  const segments = strip(glob).split('/').slice(1);
  let source = '';
  segments.forEach((segment) => {
    if (segment === '**') source += '(?:/[^/]*)*';
    else source += '/' + segment.split('').map((c) => (c === '*' ? '[^/]*' : c === '?' ? '[^/]' : c.replace(/[.+^$()|]/g, '\\$&'))).join('');
  });
  // `/**` alone also matches `/`, whose one segment is empty.
  return new RegExp(`^(?:${source})$`);
}
const referenceMatches = (glob: string, path: string) => reference(glob).test(path.length > 1 ? path.replace(/\/+$/, '') || '/' : path);

describe('path globs', () => {
  it('matches any depth below a directory with /**, the directory itself included', () => {
    for (const path of ['/premium', '/premium/', '/premium/story', '/premium/2031/03/story']) expect(matches('/premium/**', path)).toBe(true);
    for (const path of ['/', '/premiums', '/free/premium/story', '/premium-offers']) expect(matches('/premium/**', path)).toBe(false);
  });

  it('matches within one segment with * and exactly one character with ?', () => {
    expect(matches('/news/*', '/news/story')).toBe(true);
    expect(matches('/news/*', '/news/2031/story')).toBe(false);
    expect(matches('/news/*', '/news')).toBe(false);
    expect(matches('/news/*.html', '/news/story.html')).toBe(true);
    expect(matches('/news/*.html', '/news/storyxhtml')).toBe(false);
    expect(matches('/issue-?', '/issue-7')).toBe(true);
    expect(matches('/issue-?', '/issue-42')).toBe(false);
  });

  it('matches ** in the middle of a glob as zero or more segments', () => {
    expect(matches('/a/**/b', '/a/b')).toBe(true);
    expect(matches('/a/**/b', '/a/x/y/b')).toBe(true);
    expect(matches('/a/**/b', '/a/xb')).toBe(false);
    expect(matches('/**/amp', '/2031/story/amp')).toBe(true);
  });

  it('matches everything with /**, and only the home page with /', () => {
    for (const path of ['/', '/a', '/a/b/c']) expect(matches('/**', path)).toBe(true);
    expect(matches('/', '/')).toBe(true);
    expect(matches('/', '/a')).toBe(false);
  });

  it('ignores trailing slashes on both sides and matches exact paths literally', () => {
    expect(matches('/about/', '/about')).toBe(true);
    expect(matches('/about', '/about/')).toBe(true);
    expect(matches('/a.b', '/axb')).toBe(false);
    expect(matches('/price+(1)', '/price+(1)')).toBe(true);
    expect(matches('/Premium/**', '/premium/story')).toBe(false);
  });

  it('refuses globs that are not absolute paths or misuse **', () => {
    expect(globProblem('/premium/**')).toBeNull();
    expect(globProblem('/news/*/amp')).toBeNull();
    expect(globProblem('premium/**')).toBe('must start with /');
    expect(globProblem('')).toBe('must start with /');
    expect(globProblem('/premium**')).toMatch(/whole path segment/);
    expect(globProblem('/a/***')).toMatch(/whole path segment/);
    expect(globProblem('/a b')).toMatch(/spaces/);
    expect(globProblem('/[abc]')).toMatch(/\[/);
    expect(globProblem('/{a,b}')).toMatch(/\{/);
    expect(globProblem(`/${'a'.repeat(199)}`)).toBeNull();
    expect(globProblem(`/${'a'.repeat(200)}`)).toMatch(/at most 200/);
  });

  it('refuses more than 16 wildcards, counting ** once', () => {
    expect(globProblem(`/${'*a'.repeat(16)}`)).toBeNull();
    expect(globProblem(`/${'*a'.repeat(17)}`)).toMatch(/at most 16 wildcards/);
    expect(globProblem(`/${'**/'.repeat(16)}a`)).toBeNull();
    expect(globProblem(`/${'?'.repeat(17)}`)).toMatch(/at most 16 wildcards/);
  });

  it('matches stars leftmost-first without losing a match a backtracking matcher would find', () => {
    expect(matches('/a*a*a*a*a*b', `/${'a'.repeat(10)}b`)).toBe(true);
    expect(matches('/a*a*a*a*a*b', `/${'a'.repeat(10)}`)).toBe(false);
    expect(matches('/*ab*ab', '/xabyabab')).toBe(true);
    expect(matches('/a?c*c', '/abcc')).toBe(true);
    expect(matches('/a?c*c', '/abc')).toBe(false);
    expect(matches('/**/x/**/x', '/x/x')).toBe(true);
    expect(matches('/**/x/y/**/z', '/x/x/y/z')).toBe(true);
    expect(matches('/**/x/y/**/z', '/x/y')).toBe(false);
    expect(matches('/*/**', '/a')).toBe(true);
  });

  it('decides the globs that made a backtracking matcher take seconds on a 1,024-character path', () => {
    const path = `/${'a'.repeat(1023)}`;
    for (const glob of [`/${'a*'.repeat(15)}b`, `/**/${'?/'.repeat(14)}b/**`, `/${'**/a/'.repeat(8)}b`]) {
      expect(globProblem(glob)).toBeNull();
      expect(matches(glob, path)).toBe(false);
      expect(matches(glob, `/${'a/'.repeat(511)}a`)).toBe(false);
    }
  });

  it('tells each glob of a set apart, as each alone would', () => {
    const globs = ['/premium/**', '/premium/free/**', '/news/*.html', '/**/amp', '/'];
    const set = new GlobSet(globs);
    for (const path of ['/premium/story', '/premium/free/a', '/news/x.html', '/news/2031/amp', '/', '/other']) {
      const matched = set.match(path);
      expect(globs.map((_, i) => matched(i))).toEqual(globs.map((glob) => matches(glob, path)));
    }
    expect(new GlobSet([]).match('/anything')(0)).toBe(false);
  });

  it('agrees with the reference on sets of literal globs (read by comparing strings), and with the automaton a wildcard glob brings in', () => {
    let seed = 11;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pick = <T>(items: T[]) => items[random(items.length)];
    const segmentOf = () => Array.from({ length: 1 + random(3) }, () => pick(['a', 'b', '.', '-'])).join('');
    const globOf = () => '/' + [...Array.from({ length: random(4) }, segmentOf), ...(random(2) ? ['**'] : [])].join('/') + pick(['', '/']);
    const pathOf = () => '/' + Array.from({ length: random(5) }, () => pick(['a', 'b', 'ab', '.', '-', ''])).join('/') + pick(['', '/', '//']);
    for (let round = 0; round < 300; round++) {
      const globs = Array.from({ length: 1 + random(6) }, globOf);
      const literal = new GlobSet(globs);
      const withWildcard = new GlobSet([...globs, '/x*y']);
      for (let p = 0; p < 10; p++) {
        const path = pathOf();
        const [byStrings, byAutomaton] = [literal.match(path), withWildcard.match(path)];
        globs.forEach((glob, i) => {
          if (byStrings(i) !== referenceMatches(glob, path) || byAutomaton(i) !== byStrings(i)) throw new Error(`${glob} on ${path}: ${byStrings(i)}, ${byAutomaton(i)}`);
        });
      }
    }
  });

  it('agrees with a regular-expression reference on thousands of random globs and paths', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pick = <T>(items: T[]) => items[random(items.length)];
    const segmentOf = () => Array.from({ length: random(4) }, () => pick(['a', 'b', '*', '?', '.'])).join('').replace(/\*\*+/g, '*');
    const globOf = () => '/' + Array.from({ length: 1 + random(4) }, () => (random(4) === 0 ? '**' : segmentOf())).join('/') + pick(['', '/']);
    const pathOf = () => '/' + Array.from({ length: random(6) }, () => Array.from({ length: random(4) }, () => pick(['a', 'b', '.'])).join('')).join('/') + pick(['', '/']);
    for (let round = 0; round < 300; round++) {
      const globs = Array.from({ length: 1 + random(8) }, globOf).filter((glob) => globProblem(glob) === null);
      const set = new GlobSet(globs);
      for (let p = 0; p < 10; p++) {
        const path = pathOf();
        const matched = set.match(path);
        globs.forEach((glob, i) => {
          if (matched(i) !== referenceMatches(glob, path)) throw new Error(`${glob} on ${path}: ${matched(i)}`);
        });
      }
    }
  });
});
