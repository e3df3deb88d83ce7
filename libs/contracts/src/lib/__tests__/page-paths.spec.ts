import { encodePagePath, MAX_PERCENT_ENCODING_LAYERS, normalisePagePath } from '../page-paths';

describe('the page path a URL names', () => {
  it('reads every spelling a router serves as /premium/story as that path', () => {
    const spellings = [
      '/premium/story',
      '/premium/story/',
      '/premium%2Fstory',
      '/premium%2fstory',
      '/%70remium/story',
      '/%2570remium/story',
      '/%252570remium%25252Fstory',
      '//premium//story',
      '/free/../premium/story',
      '/free/%2e%2e/premium/story',
      '/free/%2E%2E%2Fpremium/story',
      '/./premium/./story',
      '/premium./story.',
      '/premium.../story',
      '/premium\\story',
      '/premium%5Cstory',
      '/../../premium/story',
    ];
    for (const spelling of spellings) expect([spelling, normalisePagePath(spelling)]).toEqual([spelling, '/premium/story']);
  });

  it('keeps case and what is not a path separator, and gives / for the root', () => {
    expect(normalisePagePath('/Premium/Story')).toBe('/Premium/Story');
    expect(normalisePagePath('/caf%C3%A9/a%20b')).toBe('/café/a b');
    expect(normalisePagePath('/100%25/x%3Fy%23z')).toBe('/100%/x?y#z');
    expect(normalisePagePath('/a%zz/%')).toBe('/a%zz/%');
    expect(normalisePagePath('/%E9t%C3%A9')).toBe('/\uFFFDté');
    for (const root of ['', '/', '//', '/.', '/..', '/%2e', '/a/..']) expect(normalisePagePath(root)).toBe('/');
  });

  it('answers a path already normal as it is, as the full reading would (every path of these pieces, up to five long)', () => {
    const pieces = ['/', 'a', '.', '..', '%2F', '%41', '\\', 'B.', '.b'];
    let paths = ['/'];
    for (let length = 0; length < 4; length++) {
      paths = [...paths, ...paths.flatMap((path) => pieces.map((piece) => path + piece))];
      paths = [...new Set(paths)];
    }
    expect(paths.length).toBeGreaterThan(1_000);
    // A leading empty segment always takes the full reading, which drops it.
    for (const path of paths) expect([path, normalisePagePath(path)]).toEqual([path, normalisePagePath(`/${path}`)]);
    expect(normalisePagePath('/premium/story.html')).toBe('/premium/story.html');
  });

  it('refuses a path still encoded after the layers any router undoes', () => {
    /** `/premium` with its p percent-encoded `layers` times: `%70`, `%2570`, `%252570`, … */
    const encoded = (layers: number) => `/%${'25'.repeat(layers - 1)}70remium`;
    expect(normalisePagePath(encoded(1))).toBe('/premium');
    expect(normalisePagePath(encoded(MAX_PERCENT_ENCODING_LAYERS))).toBe('/premium');
    expect(normalisePagePath(encoded(MAX_PERCENT_ENCODING_LAYERS + 1))).toBeNull();
  });

  it('encodes a normalised path so that it reads back as itself', () => {
    for (const raw of ['/premium/story', '/café/a b', '/100%/x?y#z', '/a%zz', '/%2570remium', '/']) {
      const path = normalisePagePath(raw)!;
      const encoded = encodePagePath(path);
      expect(encoded).toMatch(/^\/[^?#\s]*$/);
      expect(normalisePagePath(encoded)).toBe(path);
    }
  });
});
