import { pathOfUrl } from '../http-edge';

describe('a request URL’s path', () => {
  it('is what comes before the first question mark, as split would read it', () => {
    for (const url of ['/api/v1/access/check?url=https%3A%2F%2Fx.example%2Fa%3Fb&userId=1', '/healthz', '/a?', '?only=query', '', '/a?b?c', '/a#frag?x']) {
      expect(pathOfUrl(url)).toBe(url.split('?')[0]);
    }
  });
});
