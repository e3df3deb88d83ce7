import { GatehouseError } from '../errors';
import type { AccessResult } from '../gatehouse';
import { KEY, page, problem, RefreshServer, tick } from './fakes';

const granted = { status: 200, body: { granted: true, reason: 'no_rule', customerId: null } };

describe('Gatehouse client', () => {
  it('runs calls queued before init once init comes, and reports failures of queued calls through on("error")', async () => {
    const { gatehouse, requests } = page(() => granted);
    const seen: AccessResult[] = [];
    const errors: GatehouseError[] = [];
    gatehouse.push(['on', 'access', (result: AccessResult) => seen.push(result)]);
    gatehouse.push(['on', 'error', (error: GatehouseError) => errors.push(error)]);
    gatehouse.push(['identify', 'reader-42']);
    gatehouse.push(['checkAccess']);
    gatehouse.push(['noSuchMethod']);
    expect(requests).toEqual([]);
    gatehouse.push(['init', { publishableKey: KEY, baseUrl: 'https://api.example/', autoPageview: false }]);
    await tick(10);
    expect(requests.map((r) => `${r.url.origin}${r.path}`)).toEqual(['https://api.example/api/v1/access/check']);
    expect(requests[0].url.searchParams.get('userId')).toBe('reader-42');
    expect(seen).toEqual([granted.body]);
    expect(errors.map((e) => e.code)).toEqual(['validation_failed']);
  });

  it('checks the page with its referrer and UTM parameters and the publishable key, and a random visitor id kept under the key', async () => {
    const { gatehouse, requests, storage } = page(() => granted);
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    await gatehouse.checkAccess();
    const { url, headers } = requests[0];
    expect(headers['X-API-Key']).toBe(KEY);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      url: 'https://news.example/story?utm_source=mail&utm_campaign=spring',
      userId: 'visitor-1',
      referrer: 'https://search.example/',
      utm_source: 'mail',
      utm_campaign: 'spring',
    });
    expect(storage.getItem(`gatehouse:${KEY}:visitor`)).toBe('visitor-1');
  });

  it.each([
    ['open', 'unreachable' as const, true],
    ['closed', 'unreachable' as const, false],
    ['open', problem(503, 'service_unavailable'), true],
    ['closed', problem(502, 'processor_error'), false],
  ])('fail mode %s: when the service answers %j, checkAccess resolves granted=%s with reason service_unavailable and emits error', async (failMode, answer, expected) => {
    const { gatehouse } = page(() => answer);
    const errors: GatehouseError[] = [];
    gatehouse.init({ publishableKey: KEY, autoPageview: false, failMode: failMode as 'open' | 'closed' });
    gatehouse.on('error', (error) => errors.push(error));
    expect(await gatehouse.checkAccess()).toEqual({ granted: expected, reason: 'service_unavailable', customerId: null });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(GatehouseError);
    expect(errors[0]).toMatchObject(answer === 'unreachable' ? { code: 'service_unavailable', status: 0 } : { code: answer.body.code, status: answer.status });
  });

  it('rejects any other failure with a typed GatehouseError carrying code, status and detail', async () => {
    const { gatehouse } = page(() => problem(403, 'url_not_in_publication'));
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    const failure = await gatehouse.checkAccess('https://elsewhere.example/').catch((error) => error);
    expect(failure).toBeInstanceOf(GatehouseError);
    expect(failure).toMatchObject({ code: 'url_not_in_publication', status: 403, detail: 'url_not_in_publication detail' });
  });

  it('refreshes once on a 401 for the token and retries the request once with the new token', async () => {
    const server = new RefreshServer();
    const { gatehouse, requests, storage } = page(({ url, body, headers }) => {
      if (url.pathname.endsWith('/refresh')) return { status: 200, body: server.issueSync(body.refreshToken) };
      return headers['Authorization'] === 'Bearer access-2' ? granted : problem(401, 'token_expired');
    });
    storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...server.issue(), refreshAt: Date.now() + 600_000 }));
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    expect(await gatehouse.checkAccess()).toEqual(granted.body);
    expect(requests.map((r) => r.path)).toEqual(['/api/v1/access/check', '/api/v1/auth/customers/refresh', '/api/v1/access/check']);
    expect((await gatehouse.getSession())?.accessToken).toBe('access-2');
  });

  it('logs the reader out when the retried request is refused again, and says so', async () => {
    const server = new RefreshServer();
    const { gatehouse, requests, storage } = page(({ url, body }) => {
      if (url.pathname.endsWith('/refresh')) return { status: 200, body: server.issueSync(body.refreshToken) };
      return problem(401, 'token_invalid');
    });
    storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...server.issue(), refreshAt: Date.now() + 600_000 }));
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    const changes: unknown[] = [];
    gatehouse.onAuthChange((session) => changes.push(session));
    await expect(gatehouse.checkout({ priceId: 'p', successUrl: 'https://news.example/ok', cancelUrl: 'https://news.example/no' })).rejects.toMatchObject({ code: 'token_invalid' });
    expect(requests.map((r) => r.path)).toEqual(['/api/v1/subscriptions/checkout', '/api/v1/auth/customers/refresh', '/api/v1/subscriptions/checkout']);
    expect(changes).toEqual([null]);
    expect(await gatehouse.getSession()).toBeNull();
  });

  it('checkout sends the browser to the processor URL; without a session it refuses before any request', async () => {
    const { gatehouse, requests, assigned, storage } = page(() => ({ status: 201, body: { url: 'https://processor.example/checkout/cs_1', sessionId: 'cs_1' } }));
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    await expect(gatehouse.checkout({ priceId: 'p', successUrl: 'https://news.example/ok', cancelUrl: 'https://news.example/no' })).rejects.toMatchObject({
      code: 'customer_token_required',
    });
    expect(requests).toEqual([]);
    storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...new RefreshServer().issue(), refreshAt: Date.now() + 600_000 }));
    await gatehouse.checkout({ priceId: 'p', successUrl: 'https://news.example/ok', cancelUrl: 'https://news.example/no' });
    expect(requests[0].headers['Authorization']).toBe('Bearer access-1');
    expect(assigned).toEqual(['https://processor.example/checkout/cs_1']);
  });

  it('openPortal sends the logged-in reader to the billing portal', async () => {
    const { gatehouse, requests, assigned, storage } = page(() => ({ status: 201, body: { url: 'https://processor.example/portal/ps_1' } }));
    storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...new RefreshServer().issue(), refreshAt: Date.now() + 600_000 }));
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    await gatehouse.openPortal({ returnUrl: 'https://news.example/account' });
    expect(requests[0]).toMatchObject({ path: '/api/v1/subscriptions/portal', body: { returnUrl: 'https://news.example/account' }, headers: { Authorization: 'Bearer access-1' } });
    expect(assigned).toEqual(['https://processor.example/portal/ps_1']);
  });

  it("changes plans and pauses the reader's own subscription with the reader's token, and asks nothing of a visitor", async () => {
    const { gatehouse, requests, storage } = page(({ url }) => ({ status: 200, body: { route: url.pathname } }));
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    await expect(gatehouse.pauseSubscription({ subscriptionId: 'sub-1', months: 1 })).rejects.toMatchObject({ code: 'customer_token_required' });
    expect(requests).toEqual([]);
    storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...new RefreshServer().issue(), refreshAt: Date.now() + 600_000 }));
    const change = { subscriptionId: 'sub-1', priceId: 'price-2' };
    await gatehouse.previewPlanChange(change);
    await gatehouse.changePlan({ ...change, when: 'period_end' });
    await gatehouse.pauseSubscription({ subscriptionId: 'sub-1', months: 2 });
    await gatehouse.resumeSubscription({ subscriptionId: 'sub-1' });
    const bearer = { headers: { Authorization: 'Bearer access-1' } };
    expect(requests).toMatchObject([
      { path: '/api/v1/subscriptions/plan-change/preview', body: change, ...bearer },
      { path: '/api/v1/subscriptions/plan-change', body: { ...change, when: 'period_end' }, ...bearer },
      { path: '/api/v1/subscriptions/pause', body: { subscriptionId: 'sub-1', months: 2 }, ...bearer },
      { path: '/api/v1/subscriptions/resume', body: { subscriptionId: 'sub-1' }, ...bearer },
    ]);
  });

  it('keeps the last access result for UI that starts listening late, and sends queued events on demand', async () => {
    const { gatehouse, requests } = page(({ url }) => (url.pathname.endsWith('/events') ? { status: 202, body: { accepted: 1 } } : granted));
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    expect(gatehouse.lastAccess).toBeNull();
    await gatehouse.checkAccess();
    expect(gatehouse.lastAccess).toEqual(granted.body);
    gatehouse.trackEvent('newsletter_subscribe', { data: { email: 'r@example.com' } });
    await gatehouse.flush();
    expect(requests.at(-1)).toMatchObject({ path: '/api/v1/events', body: { events: [{ type: 'newsletter_subscribe', data: { email: 'r@example.com' }, userId: 'visitor-1' }] } });
  });

  it('fetches the branding once per page', async () => {
    const { gatehouse, requests } = page(() => ({ status: 200, body: { brandingMode: 'generic' } }));
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    await Promise.all([gatehouse.getBranding(), gatehouse.getBranding()]);
    await gatehouse.getBranding();
    expect(requests).toHaveLength(1);
  });

  it('refuses calls before init with not_initialized', () => {
    const { gatehouse } = page(() => granted);
    expect(() => gatehouse.trackPageview()).toThrow(expect.objectContaining({ code: 'not_initialized' }));
  });
});
