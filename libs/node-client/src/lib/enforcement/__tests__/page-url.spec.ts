import { checkedOrigin, checkedPage, requestedUrl } from '../page-url';

describe('the page URL a request names', () => {
  const asked = (host: string | undefined, target: string, protocol = 'http') => requestedUrl({ protocol, host, target }, undefined);

  it('builds the URL on the Host the request names, its path set as a path', () => {
    expect(asked('news.example', '/premium/story?utm_source=mail')).toBe('http://news.example/premium/story?utm_source=mail');
    expect(asked('NEWS.example:8080', '/a', 'https')).toBe('https://news.example:8080/a');
    expect(asked('news.example.', '/a')).toBe('http://news.example./a');
    expect(asked('127.0.0.1:3100', '/a')).toBe('http://127.0.0.1:3100/a');
    expect(asked('[::1]:3100', '/a')).toBe('http://[::1]:3100/a');
    // Never parsed as a URL of its own: a path that looks like an authority stays a path on this origin.
    expect(asked('news.example', '//elsewhere.example/premium/story')).toBe('http://news.example//elsewhere.example/premium/story');
    expect(asked('news.example', '/\\elsewhere.example/a')).toBe('http://news.example//elsewhere.example/a');
    expect(asked('news.example', '/a#fragment?x')).toBe('http://news.example/a');
    // Absolute-form: the target's authority names the host (RFC 9112 3.2.2).
    expect(asked('ignored.example', 'http://news.example/premium/story?x=1')).toBe('http://news.example/premium/story?x=1');
  });

  it('refuses a Host that carries anything but a host and a port', () => {
    for (const host of [undefined, '', 'localhost#', 'localhost/free?x=', 'localhost?x', 'user@localhost', 'local host', 'localhost:99999', 'localhost:', '-x', '[nothex]', 'localhost\\x', 'a'.repeat(300) + '#']) {
      expect([host, asked(host, '/premium/story')]).toEqual([host, null]);
    }
    expect(asked('news.example', 'http://news.example#/premium/story')).toBe('http://news.example/');
    expect(asked('news.example', 'http://bad host/premium/story')).toBeNull();
  });

  it('uses publicOrigin whatever the Host says, and takes only an origin for it', () => {
    expect(requestedUrl({ protocol: 'http', host: 'localhost#', target: '/premium/story' }, checkedOrigin('https://news.example/'))).toBe('https://news.example/premium/story');
    for (const bad of ['news.example', 'https://news.example/section', 'https://user@news.example', 'ftp://news.example', 'https://news.example?x', '']) {
      expect(() => checkedOrigin(bad)).toThrow(/publicOrigin must be an origin/);
    }
  });

  it('asks about the page path the URL names, with the campaign parameters of its query', () => {
    expect(checkedPage('https://news.example/free/..%2F%2570remium//story/?utm_source=mail&utm_campaign=spring&x=1')).toEqual({
      url: 'https://news.example/premium/story',
      utmSource: 'mail',
      utmMedium: undefined,
      utmCampaign: 'spring',
    });
    expect(checkedPage('https://news.example/caf%C3%A9/100%25')?.url).toBe('https://news.example/caf%C3%A9/100%25');
    expect(checkedPage(`https://news.example/?utm_source=${'x'.repeat(500)}`)?.utmSource).toHaveLength(200);
    expect(checkedPage(`https://news.example/%${'25'.repeat(12)}70remium`)).toBeNull();
    expect(checkedPage('/premium/story')).toBeNull();
  });

  it("keeps a share link's token, so the check can open the page it was made for", () => {
    expect(checkedPage('https://news.example/premium/story/?x=1&gh_share=3q2-token_A')?.url).toBe('https://news.example/premium/story?gh_share=3q2-token_A');
    expect(checkedPage(`https://news.example/premium/story?gh_share=${'x'.repeat(129)}`)?.url).toBe('https://news.example/premium/story');
  });
});
