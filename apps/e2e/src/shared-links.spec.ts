import type { AccessCheckResult, PaywallView, ShareLink, Stats } from '@gatehouse/contracts';
import { SteerableClock } from './support/billing';
import { SITE, WholeSystem, type Reader } from './support/system-all';

const HOUR_MS = 3600 * 1000;

/**
 * Shared articles (issue #25 item 3): a subscriber's link opens its page, and only it, for
 * whoever holds it, as many times and for as long as the publication allows, within a monthly
 * allowance per subscriber; the opens are in the stats. Checks go through the gateway, whose
 * edge must send a check carrying a token to access (it counts an open).
 */
describe('shared articles', () => {
  const clock = new SteerableClock();
  let system: WholeSystem;
  let subscriber: Reader;
  let price: { id: string };
  let premium: PaywallView;

  beforeAll(async () => {
    system = await WholeSystem.start({ clock });
    [premium] = await Promise.all([
      system.paywall({ name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } }),
      system.paywall({ name: 'Meter', type: 'metered', config: { limit: 1, period: 'month' }, match: { include: ['/metered/**'] } }),
    ]);
    price = await system.price((await system.product({ name: 'Everything' })).id, { currency: 'eur', unitAmount: 900, interval: 'month' });
    subscriber = await system.reader();
    await system.grant(subscriber, price.id);
  }, 120_000);

  afterAll(() => system?.close());

  const share = (reader: Reader, url: string) => system.api('/access/share-links', { key: system.publishableKey, token: reader.accessToken, body: { url } });
  const shared = async (reader: Reader, url: string): Promise<ShareLink> => {
    const answer = await share(reader, url);
    expect(answer.status).toBe(201);
    return answer.body;
  };
  /** An anonymous reader opening `url` (a full URL, its token included). */
  const open = async (url: string, userId = 'recipient'): Promise<AccessCheckResult> => {
    const answer = await system.api(`/access/check?${new URLSearchParams({ url, userId })}`, { key: system.publishableKey });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const settings = (body: object) => system.admin('/admin/share-settings', { method: 'PUT', body });
  const changeSettings = async (body: object) => expect((await settings(body)).status).toBe(200);

  it('starts from the defaults until staff change them', async () => {
    expect((await system.admin('/admin/share-settings')).body).toEqual({ enabled: true, opensPerLink: 5, linkLifetimeHours: 168, monthlyAllowance: 10, updatedAt: null });
  });

  it('opens its page for a reader who is no subscriber, naming the sharer, and no other page', async () => {
    const link = await shared(subscriber, `${SITE}/premium/story?ref=home#top`);
    expect(link).toEqual({
      id: expect.any(String),
      url: `${SITE}/premium/story?ref=home&gh_share=${link.token}`,
      token: expect.stringMatching(/^[\w-]{32}$/),
      maxOpens: 5,
      expiresAt: expect.any(String),
      remainingThisMonth: 9,
    });
    expect(await open(link.url)).toMatchObject({ granted: true, reason: 'shared_link', sharedBy: { firstName: 'Reader' }, paywallRule: { name: 'Premium' } });
    // The same page as the check reads it: another spelling of its path, without the other query.
    expect(await open(`${SITE}/Premium//story/?gh_share=${link.token}`)).toMatchObject({ granted: true, reason: 'shared_link' });
    // Another page with the same token, the page without it, the page with another token.
    expect(await open(`${SITE}/premium/other?gh_share=${link.token}`)).toMatchObject({ granted: false, reason: 'blocked' });
    expect(await open(`${SITE}/premium/story`)).toMatchObject({ granted: false, reason: 'blocked' });
    expect(await open(`${SITE}/premium/story?gh_share=${link.token.slice(0, -1)}x`)).toMatchObject({ granted: false, reason: 'blocked' });
    const other = await shared(subscriber, `${SITE}/premium/other`);
    expect(await open(`${SITE}/premium/story?gh_share=${other.token}`)).toMatchObject({ granted: false, reason: 'blocked' });
  });

  it("is worth nothing in another publication, even on its own page's path", async () => {
    const link = await shared(subscriber, `${SITE}/premium/tenant`);
    const { session, publicationId } = await system.otherPublicationSession();
    const listed = (await system.api('/admin/publications', { session })).body;
    const domain: string = (Array.isArray(listed) ? listed : listed.items).find((p: { id: string }) => p.id === publicationId).domains[0];
    await system.api('/admin/paywalls', { session, body: { name: 'Theirs', type: 'hard', match: { include: ['/**'] } } });
    const keys = (await system.api('/admin/api-keys', { session, body: { name: 'theirs' } })).body;
    const answer = await system.api(`/access/check?${new URLSearchParams({ url: `https://${domain}/premium/tenant?gh_share=${link.token}` })}`, { key: keys.publishableKey });
    expect(answer.body).toMatchObject({ granted: false, reason: 'blocked' });
  });

  it('stops after its opens, and after its lifetime', async () => {
    await changeSettings({ opensPerLink: 2, linkLifetimeHours: 2 });
    const byOpens = await shared(subscriber, `${SITE}/premium/opens`);
    expect(byOpens.maxOpens).toBe(2);
    expect(await open(byOpens.url, 'a')).toMatchObject({ reason: 'shared_link' });
    expect(await open(byOpens.url, 'b')).toMatchObject({ reason: 'shared_link' });
    expect(await open(byOpens.url, 'c')).toMatchObject({ granted: false, reason: 'blocked' });

    const byTime = await shared(subscriber, `${SITE}/premium/time`);
    expect(Date.parse(byTime.expiresAt) - clock.now().getTime()).toBeLessThanOrEqual(2 * HOUR_MS);
    clock.advance(2 * HOUR_MS + 1000);
    expect(await open(byTime.url)).toMatchObject({ granted: false, reason: 'blocked' });
    await changeSettings({ opensPerLink: 5, linkLifetimeHours: 168 });
  });

  it("opens a metered page without spending the recipient's meter", async () => {
    const link = await shared(subscriber, `${SITE}/metered/shared`);
    expect(await open(link.url, 'metered-reader')).toMatchObject({ granted: true, reason: 'shared_link' });
    expect(await open(`${SITE}/metered/free`, 'metered-reader')).toMatchObject({ granted: true, reason: 'meter_allowance', meter: { used: 1 } });
  });

  it("counts against the sharer's monthly allowance: the link past it is refused", async () => {
    const [sharer, neighbour] = await Promise.all([system.reader(), system.reader()]);
    await Promise.all([system.grant(sharer, price.id), system.grant(neighbour, price.id)]);
    await changeSettings({ monthlyAllowance: 2 });
    await shared(sharer, `${SITE}/premium/one`);
    expect((await shared(sharer, `${SITE}/premium/two`)).remainingThisMonth).toBe(0);
    const refused = await share(sharer, `${SITE}/premium/three`);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'share_allowance_exceeded', retryAfter: expect.any(Number) });
    // Another subscriber's allowance is their own.
    expect((await share(neighbour, `${SITE}/premium/three`)).status).toBe(201);
    await changeSettings({ monthlyAllowance: 10 });
    // A larger allowance counts the links already made this month.
    expect((await shared(sharer, `${SITE}/premium/three`)).remainingThisMonth).toBe(7);
  });

  it('is refused to a reader who is no subscriber, and to a reader not signed in, changing nothing', async () => {
    const reader = await system.reader();
    const refused = await share(reader, `${SITE}/premium/story`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'share_not_subscriber', detail: 'Only subscribers can share articles.' });
    const anonymous = await system.api('/access/share-links', { key: system.publishableKey, body: { url: `${SITE}/premium/story` } });
    expect(anonymous.status).toBe(401);
    expect((await share(subscriber, 'https://elsewhere.example/premium/story')).body).toMatchObject({ status: 403, code: 'url_not_in_publication' });
    expect((await share(subscriber, 'not a url')).body).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((await settings({ opensPerLink: 0 })).body).toMatchObject({ status: 400, errors: [expect.objectContaining({ field: 'opensPerLink' })] });
    await changeSettings({ enabled: false });
    expect((await share(subscriber, `${SITE}/premium/story`)).body).toMatchObject({ status: 403, code: 'sharing_disabled' });
    await changeSettings({ enabled: true });
  });

  it('shows the links, their opens and the conversions they led to in the stats', async () => {
    const before = (await stats()).sharing;
    const link = await shared(subscriber, `${SITE}/premium/counted`);
    await open(link.url);
    // The recipient subscribes from the shared page; a made-up token counts for nothing.
    const converted = (url: string) => ({ type: 'paywall_converted', url, paywallId: premium.id, userId: 'recipient' });
    await system.track({ events: [converted(link.url), converted(`${SITE}/premium/counted?gh_share=made-up`)] });
    expect((await stats()).sharing).toEqual({ linksCreated: before.linksCreated + 1, opens: before.opens + 1, conversions: before.conversions + 1 });
  });

  async function stats(): Promise<Stats> {
    const now = clock.now();
    const query = new URLSearchParams({ from: new Date(now.getTime() - 24 * HOUR_MS).toISOString(), to: new Date(now.getTime() + 24 * HOUR_MS).toISOString(), interval: 'day' });
    const answer = await system.admin<Stats>(`/admin/stats?${query}`);
    return answer.body;
  }
});
