import type { AccessCheckResult, PaywallView, ShareLink, Stats } from '@gatehouse/contracts';
import { eventually, launchBareBrowser, launchBrowser, type TestBrowser } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { SteerableClock } from '../support/billing';
import { PublisherSite, type PageRecord } from '../support/publisher-site';
import { WholeSystem } from '../support/system-all';

/** Identity signs with a clock set back, so its 15-minute access tokens expire this soon in real time. */
const TOKEN_SECONDS = 20;
const PASSWORD = 'reader-password-1';
const LONG = 120_000;

/* The SDK as a reader's browser runs it (spec 5.2, decisions J1): Debian's Chromium on a publisher's page of another origin. */
describe('the browser SDK on a publisher page', () => {
  let system: WholeSystem;
  let site: PublisherSite;
  let browser: TestBrowser;
  let metered: PaywallView;
  let members: PaywallView;
  let priceId: string;
  const reader = { email: `sdk-reader-${randomUUID()}@example.com`, password: PASSWORD, name: 'Sam Reader' };
  let readerId: string;
  /** Every API request the browser made, in order. */
  const requests: Request[] = [];

  beforeAll(async () => {
    const identityClock = new SteerableClock();
    identityClock.advance(-(900 - TOKEN_SECONDS) * 1000);
    system = await WholeSystem.start({ identityClock, domains: ['127.0.0.1'] });
    [metered, members] = await Promise.all([
      system.paywall({ name: 'Two free articles', type: 'metered', config: { limit: 2, period: 'month' }, match: { include: ['/metered/**'] } }),
      system.paywall({ name: 'Members only', type: 'registration', match: { include: ['/members/**'] } }),
    ]);
    const product = await system.product({ name: 'Digital' });
    priceId = (await system.price(product.id, { currency: 'eur', unitAmount: 900, interval: 'month' })).id;
    site = await PublisherSite.start(system.url, system.publishableKey);
    browser = await launchBrowser();
    browser.context.on('request', (request) => {
      if (request.url().includes('/api/v1/')) requests.push(request);
    });
    watchInFlight(browser.context);
  }, LONG);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await system?.close();
  }, LONG);

  const sdk = <T>(page: Page, call: string, ...args: unknown[]): Promise<T> =>
    page.evaluate(
      ([name, values]) =>
        (globalThis as any).gatehouse[name as string](...(values as unknown[])).then(
          (value: unknown) => ({ value }),
          (e: any) => ({ error: { name: e.name, code: e.code, status: e.status, detail: e.detail } }),
        ),
      [call, args] as const,
    ).then((answer: any) => {
      if (answer.error) throw Object.assign(new Error(`${call}: ${answer.error.code}`), answer.error);
      return answer.value as T;
    });
  const record = (page: Page): Promise<PageRecord> => page.evaluate(() => (globalThis as any).record);
  const stored = (page: Page, name: string): Promise<string | null> =>
    page.evaluate(([key, item]) => (globalThis as any).localStorage.getItem(`gatehouse:${key}:${item}`), [system.publishableKey, name] as const);
  const storedSession = async (page: Page) => JSON.parse((await stored(page, 'session')) ?? 'null');
  const writeSession = (page: Page, changes: Record<string, unknown>) =>
    page.evaluate(
      ([key, patch]) => {
        const name = `gatehouse:${key}:session`;
        const storage = (globalThis as any).localStorage;
        storage.setItem(name, JSON.stringify({ ...JSON.parse(storage.getItem(name) as string), ...patch }));
      },
      [system.publishableKey, changes] as const,
    );

  /** The API requests each page has sent and not yet seen answered. */
  const unanswered = new Map<Page, Set<Request>>();
  const watchInFlight = (context: BrowserContext) => {
    const of = (request: Request) => {
      const page = request.url().includes('/api/v1/') ? request.frame().page() : undefined;
      return page && (unanswered.get(page) ?? unanswered.set(page, new Set()).get(page));
    };
    context.on('request', (request) => of(request)?.add(request));
    context.on('requestfinished', (request) => of(request)?.delete(request));
    context.on('requestfailed', (request) => of(request)?.delete(request));
  };
  /**
   * Closes tabs once their requests are answered, as a reader leaves a page that has loaded. A tab
   * closed while its token refresh is under way loses the new tokens the service has already issued:
   * the reader is logged out at the next visit (docs/sdk.md, "Tokens and their storage"), and a later test with them.
   */
  async function close(...pages: Page[]): Promise<void> {
    await Promise.all(
      pages.map(async (page) => {
        await eventually(() => (unanswered.get(page)?.size ? undefined : true), 30_000);
        await page.close();
      }),
    );
  }

  /** Opens a page of the site and waits for the access check its script tag makes on load. */
  async function open(path: string, page?: Page): Promise<Page> {
    const tab = page ?? (await browser.newPage());
    await tab.goto(site.url(path));
    await tab.waitForFunction(() => (globalThis as any).record.access.length > 0, undefined, { timeout: 30_000 });
    return tab;
  }
  const apiCalls = (since: number) => requests.slice(since).map((r) => `${r.method()} ${new URL(r.url()).pathname}`);

  it(
    'the script tag alone, from another origin, checks access to the page on load and sends a page view',
    async () => {
      const page = await browser.newPage();
      const pageView = page.waitForResponse((r) => r.url().endsWith('/api/v1/events') && r.request().method() === 'POST');
      await open('/news/first-story?utm_source=newsletter', page);
      const visitor = await stored(page, 'visitor');
      expect(visitor).toEqual(expect.any(String));
      // The listener was queued before the script loaded.
      expect((await record(page)).access).toEqual([{ granted: true, reason: 'no_rule', customerId: null }]);
      const check = requests.find((r) => r.url().includes('/api/v1/access/check'))!;
      expect(new URL(check.url()).origin).toBe(system.url.replace('127.0.0.1', 'localhost'));
      expect(Object.fromEntries(new URL(check.url()).searchParams)).toMatchObject({
        url: site.url('/news/first-story?utm_source=newsletter'),
        userId: visitor,
        utm_source: 'newsletter',
      });
      expect(await check.headerValue('x-api-key')).toBe(system.publishableKey);
      const answer = await pageView;
      expect(answer.status()).toBe(202);
      expect(answer.request().postDataJSON()).toEqual({
        events: [{ type: 'page_view', url: site.url('/news/first-story?utm_source=newsletter'), userId: visitor, occurredAt: expect.any(String) }],
      });
      expect(await answer.json()).toEqual({ accepted: 1 });
      await close(page);
    },
    LONG,
  );

  it(
    'a metered article is granted until the meter runs out, then denied with the paywall',
    async () => {
      const page = await browser.newPage();
      const seen = [];
      for (const path of ['/metered/one', '/metered/two', '/metered/three']) seen.push((await record(await open(path, page))).access[0]);
      expect(seen.map((r) => [r.granted, r.reason, r.meter?.used, r.meter?.remaining])).toEqual([
        [true, 'meter_allowance', 1, 1],
        [true, 'meter_allowance', 2, 0],
        [false, 'blocked', 2, 0],
      ]);
      expect(seen[2].paywallRule).toMatchObject({ paywallId: metered.id, type: 'metered', config: { limit: 2, period: 'month' } });
      // The same article again does not count twice, the denial stands on the next.
      expect(await sdk(page, 'checkAccess', site.url('/metered/one'))).toMatchObject({ granted: true, meter: { used: 2 } });
      await close(page);
    },
    LONG,
  );

  it(
    'a reader registers, logs out and logs in again; a wrong password is a typed error',
    async () => {
      const page = await open('/members/story');
      expect((await record(page)).access[0]).toMatchObject({ granted: false, reason: 'blocked', paywallRule: { paywallId: members.id } });

      const session = await sdk<any>(page, 'register', reader);
      readerId = session.customer.id;
      expect(session).toMatchObject({ customer: { email: reader.email, name: reader.name }, accessToken: expect.any(String), expiresAt: expect.any(Number) });
      expect(await sdk(page, 'checkAccess')).toMatchObject({ granted: true, reason: 'registered', customerId: readerId });

      const { refreshToken } = await storedSession(page);
      await sdk(page, 'logout');
      expect(await storedSession(page)).toBeNull();
      expect(await sdk(page, 'getSession')).toBeNull();
      expect(await sdk(page, 'checkAccess')).toMatchObject({ granted: false, reason: 'blocked', customerId: null });
      // The service revoked the session too: its refresh token is dead.
      expect((await system.api('/auth/customers/refresh', { key: system.publishableKey, body: { refreshToken } })).body).toMatchObject({ code: 'refresh_token_invalid' });

      await expect(sdk(page, 'login', { email: reader.email, password: 'not-the-password' })).rejects.toMatchObject({
        name: 'GatehouseError',
        code: 'invalid_credentials',
        status: 401,
        detail: expect.any(String),
      });
      expect(await sdk(page, 'login', { email: reader.email, password: PASSWORD })).toMatchObject({ customer: { id: readerId } });
      expect(await sdk(page, 'checkAccess')).toMatchObject({ granted: true, reason: 'registered', customerId: readerId });
      expect((await record(page)).auth).toEqual([reader.email, null, reader.email]);
      expect((await record(page)).errors).toEqual([]);
      await close(page);
    },
    LONG,
  );

  it(
    'an access token that expires is refreshed without the page noticing: ahead of expiry, and on a 401',
    async () => {
      const page = await open('/members/story');
      const first = await storedSession(page);
      expect(first.customer.id).toBe(readerId);

      // Ahead of expiry: the next call refreshes first.
      await eventually(() => (Date.now() > first.expiresAt ? true : undefined), (TOKEN_SECONDS + 10) * 1000);
      let since = requests.length;
      expect(await sdk(page, 'checkAccess')).toMatchObject({ granted: true, reason: 'registered', customerId: readerId });
      expect(apiCalls(since)).toEqual(['POST /api/v1/auth/customers/refresh', 'GET /api/v1/access/check']);
      const second = await storedSession(page);
      expect(second.accessToken).not.toBe(first.accessToken);
      expect(second.refreshToken).not.toBe(first.refreshToken);

      // The page's clock was wrong about the expiry: the API answers 401, the SDK refreshes once and retries once.
      await writeSession(page, { refreshAt: Date.now() + 3_600_000 });
      await eventually(() => (Date.now() > second.expiresAt + 1000 ? true : undefined), (TOKEN_SECONDS + 10) * 1000);
      since = requests.length;
      expect(await sdk(page, 'checkAccess')).toMatchObject({ granted: true, reason: 'registered', customerId: readerId });
      expect(apiCalls(since)).toEqual(['GET /api/v1/access/check', 'POST /api/v1/auth/customers/refresh', 'GET /api/v1/access/check']);
      expect((await storedSession(page)).accessToken).not.toBe(second.accessToken);

      const { auth, errors } = await record(page);
      expect(auth).toEqual([]);
      expect(errors).toEqual([]);
      await close(page);
    },
    LONG,
  );

  it(
    'two tabs refreshing at the same moment both stay logged in, and the refresh token rotates once',
    async () => {
      const [a, b] = await Promise.all([open('/members/a'), open('/members/b')]);
      await writeSession(a, { refreshAt: Date.now() - 1 });
      const before = await storedSession(a);
      const since = requests.length;
      const [fromA, fromB] = await Promise.all([sdk(a, 'checkAccess'), sdk(b, 'checkAccess')]);
      expect(fromA).toMatchObject({ granted: true, reason: 'registered', customerId: readerId });
      expect(fromB).toMatchObject({ granted: true, reason: 'registered', customerId: readerId });
      // The tabs take turns, so the second nearly always finds the first one's tokens. Chromium hands
      // localStorage writes to other tabs asynchronously, though: when the second tab still reads the
      // old tokens it presents the same refresh token within the grace window (decisions D3), is told
      // `token_invalid` and waits for the winner's tokens. Either way one token was presented and it
      // rotated once.
      const refreshes = requests.slice(since).filter((r) => r.url().endsWith('/auth/customers/refresh'));
      expect(new Set(refreshes.map((r) => r.postDataJSON().refreshToken))).toEqual(new Set([before.refreshToken]));
      const statuses = await Promise.all(refreshes.map(async (r) => (await r.response())?.status()));
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);

      // The family is intact: the tokens both tabs now hold keep refreshing. (A tab sees another's
      // storage write a moment later: the tabs agree once it has reached both.)
      const agreed = await eventually(async () => {
        const [sessionA, sessionB] = await Promise.all([sdk<any>(a, 'getSession'), sdk<any>(b, 'getSession')]);
        return sessionA.accessToken === sessionB.accessToken ? sessionA : undefined;
      }, 5_000);
      expect(agreed.customer.id).toBe(readerId);
      await writeSession(b, { refreshAt: Date.now() - 1 });
      expect(await sdk(b, 'checkAccess')).toMatchObject({ granted: true, reason: 'registered' });
      expect(await sdk(a, 'checkAccess')).toMatchObject({ granted: true, reason: 'registered' });
      for (const tab of [a, b]) expect((await record(tab)).errors).toEqual([]);
      await close(a, b);
    },
    LONG,
  );

  it(
    'logging out in one tab is seen by the other, and so is logging in',
    async () => {
      const [a, b] = await Promise.all([open('/members/a'), open('/members/b')]);
      await sdk(a, 'logout');
      await b.waitForFunction(() => (globalThis as any).record.auth.at(-1) === null, undefined, { timeout: 10_000 });
      expect(await sdk(b, 'getSession')).toBeNull();
      expect(await sdk(b, 'checkAccess')).toMatchObject({ granted: false, reason: 'blocked' });

      await sdk(b, 'login', { email: reader.email, password: PASSWORD });
      await a.waitForFunction((email) => (globalThis as any).record.auth.at(-1) === email, reader.email, { timeout: 10_000 });
      expect(await sdk(a, 'checkAccess')).toMatchObject({ granted: true, customerId: readerId });
      expect((await record(a)).auth).toEqual([null, reader.email]);
      await close(a, b);
    },
    LONG,
  );

  it(
    'events sent right before navigating away arrive: the stats count them',
    async () => {
      const page = await open('/news/second-story');
      await page.evaluate((paywallId) => {
        const gatehouse = (globalThis as any).gatehouse;
        gatehouse.trackEvent('paywall_shown', { paywallId });
        gatehouse.trackEvent('paywall_shown', { paywallId });
        gatehouse.trackEvent('paywall_dismissed', { paywallId });
        (globalThis as any).location.href = '/news/third-story';
      }, members.id);
      await page.waitForURL(site.url('/news/third-story'));
      const range = new URLSearchParams({ interval: 'hour', from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 3_600_000).toISOString() });
      const counted = await eventually(async () => {
        const stats = (await system.admin<Stats>(`/admin/stats?${range}`)).body;
        const row = stats.paywalls?.find((p) => p.paywallId === members.id);
        return row && row.shown + row.dismissed >= 3 ? row : undefined;
      }, 30_000);
      expect(counted).toMatchObject({ shown: 2, dismissed: 1 });
      await close(page);
    },
    LONG,
  );

  it(
    'checkout sends the logged-in reader to the processor’s page for their own checkout',
    async () => {
      const page = await open('/members/pricing');
      const successUrl = site.url('/members/welcome');
      await page.evaluate(
        ([price, success, cancel]) => void (globalThis as any).gatehouse.checkout({ priceId: price, successUrl: success, cancelUrl: cancel }),
        [priceId, successUrl, site.url('/members/pricing')] as const,
      );
      await page.waitForURL((url) => url.toString().startsWith(`${system.fake.url}/checkout/cs_`), { timeout: 30_000 });
      const sessionId = new URL(page.url()).pathname.split('/').pop();
      const sessions = await system.fake.requestsTo('POST', '/v1/checkout/sessions');
      const made = sessions.at(-1)!;
      // The processor puts the session's id in the success URL, for the page to confirm the checkout.
      expect(made.body).toMatchObject({ success_url: `${successUrl}?gatehouse_checkout={CHECKOUT_SESSION_ID}`, metadata: { customerId: readerId, priceId } });
      expect((await system.fake.object('checkout.session', sessionId!)).id).toBe(sessionId);
      await close(page);
    },
    LONG,
  );

  it(
    'an offer in the paywall: its link fills the code in, a typed code shows its terms for the plan, and checkout completes at the processor with the discount',
    async () => {
      await system.paywall({ name: 'Premium', type: 'hard', presentation: 'inline', match: { include: ['/premium/**'] } });
      const created = await system.admin('/admin/offers', {
        body: { code: 'HALF3', name: 'Spring offer', kind: 'amount', amountOff: 450, currency: 'eur', duration: 'repeating', durationInMonths: 3, priceIds: [priceId] },
      });
      expect(created.status).toBe(201);
      const terms = 'Spring offer: €4.50 a month for 3 months, then €9.';

      const linked = await open('/premium/story?elements&offer=half3');
      const field = linked.getByLabel('Offer code');
      await linked.getByText(terms).waitFor({ timeout: 30_000 });
      expect(await field.inputValue()).toBe('half3');
      await close(linked);

      // An offer for a segment: the SDK states the reader as its checks do, so the campaign's page takes it and another does not.
      const campaign = await system.admin('/admin/segments', { body: { name: 'Spring campaign', match: 'all', conditions: [{ attribute: 'utm_campaign', operator: 'eq', value: 'spring' }] } });
      await system.admin('/admin/offers', {
        body: { code: 'CAMPAIGN3', name: 'Campaign offer', kind: 'amount', amountOff: 450, currency: 'eur', duration: 'repeating', durationInMonths: 3, priceIds: [priceId], segmentId: campaign.body.id },
      });
      const elsewhere = await open('/premium/story?elements&offer=campaign3');
      await elsewhere.getByText('This offer is not available to you.').waitFor({ timeout: 30_000 });
      await close(elsewhere);
      const fromCampaign = await open('/premium/story?elements&utm_campaign=spring&offer=campaign3');
      await fromCampaign.getByText('Campaign offer: €4.50 a month for 3 months, then €9.').waitFor({ timeout: 30_000 });
      await close(fromCampaign);

      const page = await open('/premium/other?elements');
      await page.getByLabel('Offer code').fill('NOPE-NOPE');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('This code is not valid.').waitFor();
      await page.getByLabel('Offer code').fill('half3');
      await page.getByLabel('Offer code').press('Enter');
      await page.getByText(terms).waitFor();
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();

      await page.waitForURL((url) => url.toString().startsWith(`${system.fake.url}/checkout/cs_`), { timeout: 30_000 });
      await expect(page.locator('#promotion-code').textContent()).resolves.toBe('HALF3');
      await expect(page.locator('#amount-total').textContent()).resolves.toBe('450 eur');
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL((url) => url.toString().startsWith(site.url('/premium/other')), { timeout: 30_000 });
      const [subscription] = await eventually(async () => {
        const mine = (await system.api(`/subscriptions/me?customerId=${readerId}`, { key: system.secretKey })).body.subscriptions;
        return mine.some((s: { offer?: unknown }) => s.offer) ? mine : undefined;
      });
      expect(subscription).toMatchObject({ status: 'active', offer: { offerId: created.body.id, code: 'HALF3' } });
      await close(page);
    },
    LONG,
  );

  it(
    'a subscriber shares the article with the SDK; the link opened in a fresh browser shows the article and who shared it, and no other page',
    async () => {
      const sharer = { email: `sharer-${randomUUID()}@example.com`, password: PASSWORD, name: 'Ada Lovelace' };
      const registered = await system.api('/auth/customers/register', { key: system.publishableKey, body: sharer });
      await system.admin('/admin/subscriptions', { body: { customerId: registered.body.customer.id, priceId } });
      const bare = await launchBareBrowser();
      try {
        // The sharer, signed in on the members' article, asks the SDK for a link to it.
        const sharing = await open('/members/shared-story?elements', await (await bare.newContext()).newPage());
        await sdk(sharing, 'login', { email: sharer.email, password: sharer.password });
        const link = await sdk<ShareLink>(sharing, 'share');
        expect(link.url).toBe(site.url(`/members/shared-story?elements=&gh_share=${link.token}`));

        // Someone with no account, in a browser that never saw the site, opens it.
        const recipient = await (await bare.newContext()).newPage();
        await recipient.goto(link.url);
        await recipient.waitForFunction(() => (globalThis as any).record.access.length > 0, undefined, { timeout: 30_000 });
        expect((await record(recipient)).access[0]).toMatchObject({ granted: true, reason: 'shared_link', sharedBy: { firstName: 'Ada' }, customerId: null });
        // The publisher's page, with a content lock around the article and the meter notice: the article shows, the notice names the sharer and offers to subscribe.
        await recipient.evaluate(() => {
          const lock = document.createElement('gatehouse-content-lock');
          lock.innerHTML = '<p>The rest of the shared story.</p>';
          document.querySelector('main')!.append(document.createElement('gatehouse-meter-notice'), lock);
        });
        const notice = recipient.locator('gatehouse-meter-notice [part~="notice"]');
        const article = recipient.getByText('The rest of the shared story.');
        await notice.waitFor({ state: 'visible', timeout: 10_000 });
        await expect(notice.textContent()).resolves.toContain('Ada shared this article with you.');
        await expect(notice.getByRole('button', { name: 'Subscribe' }).isVisible()).resolves.toBe(true);
        await article.waitFor({ state: 'visible', timeout: 10_000 });
        await browser.screenshot(recipient, 'sdk-shared-article');

        // The token opens nothing else: checked for another page, the lock closes and the notice goes.
        const elsewhere = await sdk<AccessCheckResult>(recipient, 'checkAccess', site.url(`/members/other-story?gh_share=${link.token}`));
        expect(elsewhere).toMatchObject({ granted: false, reason: 'blocked' });
        await article.waitFor({ state: 'hidden', timeout: 10_000 });
        await notice.waitFor({ state: 'detached', timeout: 10_000 });
      } finally {
        await bare.close();
      }
    },
    LONG,
  );

  it(
    'with the service stopped, failMode decides: open grants, closed denies, and both report the error',
    async () => {
      const [open_, closed] = await Promise.all([open('/members/story?failMode=open'), open('/members/story?failMode=closed')]);
      for (const page of [open_, closed]) expect((await record(page)).access).toEqual([{ granted: true, reason: 'subscriber', customerId: readerId }]);
      await system.stopGateway();
      const granted = await sdk(open_, 'checkAccess');
      const denied = await sdk(closed, 'checkAccess');
      expect(granted).toEqual({ granted: true, reason: 'service_unavailable', customerId: readerId });
      expect(denied).toEqual({ granted: false, reason: 'service_unavailable', customerId: readerId });
      for (const page of [open_, closed]) {
        expect((await record(page)).errors).toEqual([{ name: 'GatehouseError', code: 'service_unavailable', status: 0, detail: expect.any(String) }]);
      }
      // A page opened during the outage, its script from the browser's cache, decides on load.
      const later = await open('/members/next?failMode=closed');
      expect((await record(later)).access).toEqual([{ granted: false, reason: 'service_unavailable', customerId: readerId }]);
      await close(open_, closed, later);
    },
    // Closing the gateway waits for the browser's open connections to end.
    3 * 60_000,
  );
});
