import type { AccessResult } from '../gatehouse';
import { KEY, page, problem, RefreshServer, tick } from './fakes';

const denied = { granted: false, reason: 'blocked', customerId: null };
const granted = { granted: true, reason: 'registered', customerId: 'customer-1' };

/* What a page's decision holds to: a bound on the wait, the latest check winning, and the other tabs. */
describe('access decisions', () => {
  it('decides by the fail mode when the service does not answer within accessTimeoutMs', async () => {
    for (const failMode of ['open', 'closed'] as const) {
      const { gatehouse } = page(() => 'hang');
      const errors: string[] = [];
      gatehouse.init({ publishableKey: KEY, autoPageview: false, failMode, accessTimeoutMs: 50 });
      gatehouse.on('error', (error) => errors.push(error.code));
      const started = Date.now();
      expect(await gatehouse.checkAccess()).toEqual({ granted: failMode === 'open', reason: 'service_unavailable', customerId: null });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(errors).toEqual(['service_unavailable']);
    }
  });

  it('never lets an earlier check that answers late undo a later one', async () => {
    let calls = 0;
    const { gatehouse } = page(async () => {
      calls += 1;
      if (calls === 1) {
        await tick(50);
        return { status: 200, body: denied };
      }
      return { status: 200, body: granted };
    });
    const seen: AccessResult[] = [];
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    gatehouse.on('access', (result) => seen.push(result));
    const [first, second] = await Promise.all([gatehouse.checkAccess(), tick(5).then(() => gatehouse.checkAccess())]);
    expect([first, second]).toEqual([denied, granted]);
    expect(seen).toEqual([granted]);
    expect(gatehouse.lastAccess).toEqual(granted);
  });

  it('checks the page again when another tab signs in or out, or tells of a subscription; not before the page was checked', async () => {
    const server = new RefreshServer();
    const { gatehouse, requests, storage, dispatch } = page(({ headers }) => ({ status: 200, body: headers['Authorization'] ? granted : denied }));
    const seen: AccessResult[] = [];
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    gatehouse.on('access', (result) => seen.push(result));
    const sessionKey = `gatehouse:${KEY}:session`;

    storage.setItem(sessionKey, JSON.stringify({ ...server.issue(), refreshAt: Date.now() + 600_000 }));
    dispatch('storage', { key: sessionKey });
    await tick(10);
    expect(requests).toEqual([]);

    await gatehouse.checkAccess('https://news.example/members/story', { country: 'FR' });
    storage.removeItem(sessionKey);
    dispatch('storage', { key: sessionKey });
    await tick(10);
    expect(seen).toEqual([granted, denied]);
    expect(Object.fromEntries(requests[1].url.searchParams)).toMatchObject({ url: 'https://news.example/members/story', country: 'FR' });

    storage.setItem(sessionKey, JSON.stringify({ ...server.issue(), refreshAt: Date.now() + 600_000 }));
    dispatch('storage', { key: sessionKey });
    await tick(10);
    dispatch('storage', { key: `gatehouse:${KEY}:access-changed` });
    await tick(10);
    expect(seen).toEqual([granted, denied, granted, granted]);
    // A refresh of the same reader's tokens in another tab is no change of reader.
    storage.setItem(sessionKey, JSON.stringify({ ...server.issue(), refreshAt: Date.now() + 600_000 }));
    dispatch('storage', { key: sessionKey });
    await tick(10);
    expect(seen).toHaveLength(4);
  });

  it('sends a wall’s event at once and says what the service refused, field by field', async () => {
    const refusal = { status: 400, body: { ...problem(400, 'validation_failed').body, errors: [{ field: 'data.email', message: 'must be an email address' }] } };
    const { gatehouse, requests } = page(({ body }) => (body.data.email ? { status: 202, body: { accepted: 1 } } : refusal));
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    await expect(gatehouse.sendEvent('newsletter_subscribe', { paywallId: 'p-1', data: { email: '' } })).rejects.toMatchObject({
      code: 'validation_failed',
      status: 400,
      errors: [{ field: 'data.email', message: 'must be an email address' }],
    });
    await gatehouse.sendEvent('newsletter_subscribe', { paywallId: 'p-1', data: { email: 'r@example.com' } });
    expect(requests.map((r) => r.body)).toEqual([
      expect.objectContaining({ type: 'newsletter_subscribe', paywallId: 'p-1', data: { email: '' }, userId: 'visitor-1' }),
      expect.objectContaining({ type: 'newsletter_subscribe', data: { email: 'r@example.com' }, url: 'https://news.example/story?utm_source=mail&utm_campaign=spring' }),
    ]);
  });
});
