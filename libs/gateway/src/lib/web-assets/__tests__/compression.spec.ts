import { negotiatedCoding } from '../compression';

describe('negotiatedCoding (Accept-Encoding, RFC 9110 12.5.3)', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['GZIP', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['identity', null],
    ['br;q=0, gzip;q=0', null],
    ['br;q=oops', null],
    ['', null],
    [undefined, null],
  ])('%s → %s', (header, coding) => {
    expect(negotiatedCoding(header)).toBe(coding);
  });
});
