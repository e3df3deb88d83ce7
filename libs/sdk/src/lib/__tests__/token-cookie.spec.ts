import { KEY, MemoryStorage, page, problem, RefreshServer } from './fakes';

const granted = { status: 200, body: { granted: true, reason: 'subscriber', customerId: 'customer-1' } };
const ATTRIBUTES = '; Path=/; SameSite=Lax; Secure';
const REMOVED = `gatehouse_token=; Max-Age=0${ATTRIBUTES}`;

/** The first-party cookie that carries the reader's access token to the publisher's server (docs/server.md). */
describe('the token cookie', () => {
  it('follows the session: set at sign-in for the token lifetime, replaced on refresh, removed at sign-out', async () => {
    const server = new RefreshServer();
    const { gatehouse, cookies } = page(({ url, body, headers }) => {
      if (url.pathname.endsWith('/login')) return { status: 200, body: server.issue() };
      if (url.pathname.endsWith('/refresh')) return { status: 200, body: server.issueSync(body.refreshToken) };
      if (url.pathname.endsWith('/logout')) return { status: 204 };
      return headers['Authorization'] === 'Bearer access-2' ? granted : problem(401, 'token_expired');
    });
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    expect(cookies).toEqual([REMOVED]);

    await gatehouse.login({ email: 'r@example.com', password: 'secret-password' });
    expect(cookies.at(-1)).toMatch(/^gatehouse_token=access-1; Max-Age=(899|900); Path=\/; SameSite=Lax; Secure$/);
    await gatehouse.checkAccess();
    expect(cookies.at(-1)).toMatch(/^gatehouse_token=access-2; Max-Age=(899|900); Path=\/; SameSite=Lax; Secure$/);
    await gatehouse.logout();
    expect(cookies.at(-1)).toBe(REMOVED);
  });

  it('is written for a session the page starts with, removed for an expired one, and goes when a refresh is refused', async () => {
    const server = new RefreshServer();
    const storage = new MemoryStorage();
    storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...server.issue(120_000), refreshAt: Date.now() + 60_000 }));
    const current = page(() => granted, storage, 'http://news.example/story');
    current.gatehouse.init({ publishableKey: KEY, autoPageview: false });
    // On http the cookie cannot be Secure.
    expect(current.cookies).toEqual([expect.stringMatching(/^gatehouse_token=access-1; Max-Age=(119|120); Path=\/; SameSite=Lax$/)]);

    storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...server.issue(-1000), refreshAt: Date.now() - 60_000 }));
    const expired = page(() => granted, storage);
    expired.gatehouse.init({ publishableKey: KEY, autoPageview: false });
    expect(expired.cookies).toEqual([REMOVED]);

    storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...server.issue(30_000), refreshAt: Date.now() - 1 }));
    const refused = page(({ url }) => (url.pathname.endsWith('/refresh') ? problem(401, 'refresh_token_invalid') : granted), storage);
    refused.gatehouse.init({ publishableKey: KEY, autoPageview: false });
    expect(refused.cookies).toEqual([expect.stringMatching(/^gatehouse_token=access-3; Max-Age=(29|30);/)]);
    await refused.gatehouse.checkAccess();
    expect(refused.cookies.at(-1)).toBe(REMOVED);
  });

  it('takes another name, or none at all, and refuses a name no cookie can have', () => {
    const named = page(() => granted);
    named.gatehouse.init({ publishableKey: KEY, autoPageview: false, tokenCookie: 'courier_reader' });
    expect(named.cookies).toEqual([`courier_reader=; Max-Age=0${ATTRIBUTES}`]);
    const none = page(() => granted);
    none.gatehouse.init({ publishableKey: KEY, autoPageview: false, tokenCookie: false });
    expect(none.cookies).toEqual([]);
    for (const bad of ['', 'a b', 'a;b', 'a=b']) {
      expect(() => page(() => granted).gatehouse.init({ publishableKey: KEY, tokenCookie: bad })).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    }
  });
});
