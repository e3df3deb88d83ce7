import { compileGlob, globProblem } from '../path-glob';

const matches = (glob: string, path: string) => compileGlob(glob)(path);

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
    expect(globProblem(`/${'a'.repeat(500)}`)).toMatch(/at most 500/);
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

  it('decides the globs that made a backtracking matcher take seconds on a 2,048-character path in a blink', () => {
    const path = `/${'a'.repeat(2047)}`;
    for (const glob of [`/${'a*'.repeat(15)}b`, `/**/${'?/'.repeat(14)}b/**`, `/${'**/a/'.repeat(8)}b`]) {
      expect(globProblem(glob)).toBeNull();
      expect(matches(glob, path)).toBe(false);
      expect(matches(glob, `/${'a/'.repeat(1023)}a`)).toBe(false);
    }
  });
});
