import { hostInDomains, parsePageUrl, requirePublicationHost } from '../page-url';

describe('page URLs', () => {
  it('takes absolute http(s) URLs only, naming the field', () => {
    expect(parsePageUrl('https://News.Example.com:8443/Premium/story/?utm=x#top', 'url')).toEqual({
      hostname: 'news.example.com',
      path: '/Premium/story',
      matchPath: '/premium/story',
      key: 'news.example.com/premium/story',
    });
    expect(parsePageUrl('http://example.com', 'url').path).toBe('/');
    for (const bad of ['/premium/story', 'example.com/story', 'ftp://example.com/a', 'javascript:alert(1)', 'https://', '']) {
      expect(() => parsePageUrl(bad, 'events[2].url')).toThrow(expect.objectContaining({ problem: expect.objectContaining({ code: 'validation_failed', errors: [{ field: 'events[2].url', message: expect.any(String) }] }) }));
    }
  });

  it('reads the page the URL names, however the path and host are spelled', () => {
    const spellings = [
      'https://news.example/premium/story',
      'https://news.example./premium/story',
      'https://NEWS.example/PREMIUM/Story/',
      'https://news.example/premium%2Fstory',
      'https://news.example/%2570remium/story',
      'https://news.example//premium///story',
      'https://news.example/free/%2e%2e/premium/story',
      'https://news.example/free/..%2Fpremium/story',
      'https://news.example/premium./story',
      'https://news.example/premium\\story',
    ];
    for (const url of spellings) expect([url, parsePageUrl(url, 'url').key]).toEqual([url, 'news.example/premium/story']);
    expect(() => parsePageUrl(`https://news.example/%${'25'.repeat(8)}70remium`, 'url')).toThrow(
      expect.objectContaining({ problem: expect.objectContaining({ code: 'validation_failed', errors: [{ field: 'url', message: expect.stringMatching(/percent-encoded/) }] }) }),
    );
  });

  it('matches a domain exactly and *.domain on any subdomain, never the bare domain', () => {
    const domains = ['example.com', '*.news.example'];
    expect(hostInDomains('example.com', domains)).toBe(true);
    expect(hostInDomains('www.example.com', domains)).toBe(false);
    expect(hostInDomains('a.news.example', domains)).toBe(true);
    expect(hostInDomains('a.b.news.example', domains)).toBe(true);
    expect(hostInDomains('news.example', domains)).toBe(false);
    expect(hostInDomains('evilnews.example', domains)).toBe(false);
    expect(hostInDomains('example.com.evil.test', domains)).toBe(false);
  });

  it('refuses a page outside the publication with 403 url_not_in_publication', () => {
    expect(() => requirePublicationHost(parsePageUrl('https://elsewhere.test/a', 'url'), ['example.com'])).toThrow(
      expect.objectContaining({ code: 'url_not_in_publication', status: 403 }),
    );
  });
});
