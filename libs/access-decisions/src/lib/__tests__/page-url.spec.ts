import { checkedPageOf, hostInDomains, pageAddressOf, parsePageUrl, requirePublicationHost } from '../page-url';

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

  it('reads the page an access check names once, and refuses a page no check may name', () => {
    const page = checkedPageOf('https://News.Example.com/Premium/%2e%2e/Story?x=1', ['news.example.com']);
    expect(page).toEqual({ hostname: 'news.example.com', path: '/Story', matchPath: '/story', key: 'news.example.com/story' });
    // What the check's request carries is enough to read the page again, as access does.
    expect(pageAddressOf({ hostname: page.hostname, path: page.path })).toEqual(page);
    const refused = (url: string) => {
      try {
        checkedPageOf(url, ['news.example.com'], 'articleUrl');
      } catch (err) {
        return (err as { problem: object }).problem;
      }
      return null;
    };
    for (const url of ['ftp://news.example.com/x', 'not a url', `https://news.example.com/${'a'.repeat(1_024)}`]) {
      expect(refused(url)).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'articleUrl' }] });
    }
    expect(refused(`https://news.example.com/${'a'.repeat(1_023)}`)).toBeNull();
    expect(refused('https://elsewhere.example/premium')).toMatchObject({ status: 403, code: 'url_not_in_publication' });
  });
});
