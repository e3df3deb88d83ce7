import type { AccessCheckResult } from '@gatehouse/contracts';
import { TestDnsServer } from './support/dns-server';
import { SITE, WholeSystem } from './support/system-all';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDEBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
/** In Google's published Googlebot range, and Bing's. */
const GOOGLE_ADDRESS = '66.249.66.1';
const BING_ADDRESS = '157.55.39.10';
/** Documentation space (RFC 5737): no crawler's. */
const SPOOFER = '203.0.113.9';
/** Outside every published range: only DNS can vouch for these. */
const GOOGLEBOT_BY_DNS = '198.51.100.8';
const CLOUD_VM = '198.51.100.7';

/**
 * The crawler policy per publication: verified search engines granted, metered or denied, AI
 * crawlers allowed or denied, each decision naming its rule and counted apart. The gateway trusts
 * X-Forwarded-For here, as behind a CDN, so each request can come from the address a test names.
 */
describe('crawler policy', () => {
  let system: WholeSystem;
  let dnsServer: TestDnsServer;

  beforeAll(async () => {
    dnsServer = (await TestDnsServer.start())
      .host(GOOGLEBOT_BY_DNS, 'crawl-198-51-100-8.googlebot.com')
      // Any Google Cloud VM's address has a reverse name like this one, forward-confirmed.
      .host(CLOUD_VM, '7.100.51.198.bc.googleusercontent.com');
    dnsServer.useForThisProcess();
    system = await WholeSystem.start({ gatewayEnv: { TRUST_PROXY: 'true' } });
    await system.paywall({ name: 'Premium', type: 'hard', match: { include: ['/crawl/**'] } });
  }, 120_000);

  afterAll(async () => {
    await system?.close();
    dnsServer?.close();
  });

  const check = async (path: string, userAgent: string, address: string): Promise<AccessCheckResult> => {
    const answer = await system.api(`/access/check?url=${encodeURIComponent(`${SITE}${path}`)}`, {
      key: system.publishableKey,
      headers: { 'User-Agent': userAgent, 'X-Forwarded-For': address },
    });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const policy = (body: object) => system.admin('/admin/crawler-policy', { method: 'PUT', body });

  it('treats crawlers as any visitor until the publication sets a policy', async () => {
    expect((await system.admin('/admin/crawler-policy')).body).toEqual({ searchEngines: 'meter', aiCrawlers: 'meter', updatedAt: null });
    expect(await check('/crawl/a', GOOGLEBOT, GOOGLE_ADDRESS)).toMatchObject({ granted: false, reason: 'blocked' });
    expect(await check('/crawl/a', GPTBOT, SPOOFER)).toMatchObject({ granted: false, reason: 'blocked' });
  });

  it('grants a verified search engine under `grant`, naming the rule', async () => {
    expect((await policy({ searchEngines: 'grant' })).body).toMatchObject({ searchEngines: 'grant', aiCrawlers: 'meter', updatedAt: expect.any(String) });
    expect(await check('/crawl/b', GOOGLEBOT, GOOGLE_ADDRESS)).toEqual({ granted: true, reason: 'search_crawler_granted', customerId: null });
    expect(await check('/crawl/b', BINGBOT, BING_ADDRESS)).toMatchObject({ granted: true, reason: 'search_crawler_granted' });
  });

  it("verifies Googlebot by forward-confirmed reverse DNS on Google's crawler hosts only, not on any Google Cloud VM", async () => {
    await policy({ searchEngines: 'grant' });
    expect(await check('/crawl/dns', GOOGLEBOT, GOOGLEBOT_BY_DNS)).toMatchObject({ granted: true, reason: 'search_crawler_granted' });
    expect(await check('/crawl/dns', GOOGLEBOT, CLOUD_VM)).toMatchObject({ granted: false, reason: 'blocked', paywallRule: { name: 'Premium' } });
  });

  it("refuses a search engine's User-Agent from an address that is not the engine's", async () => {
    expect(await check('/crawl/c', GOOGLEBOT, SPOOFER)).toMatchObject({ granted: false, reason: 'blocked', paywallRule: { name: 'Premium' } });
    expect(await check('/crawl/c', BINGBOT, GOOGLE_ADDRESS)).toMatchObject({ granted: false, reason: 'blocked' });
    expect(await check('/crawl/c', GOOGLEBOT, '127.0.0.1')).toMatchObject({ granted: false, reason: 'blocked' });
  });

  it('denies a verified search engine under `deny`, and decides as for a visitor under `meter`', async () => {
    await policy({ searchEngines: 'deny' });
    expect(await check('/crawl/d', GOOGLEBOT, GOOGLE_ADDRESS)).toMatchObject({ granted: false, reason: 'search_crawler_denied', paywallRule: { name: 'Premium' } });
    await policy({ searchEngines: 'meter' });
    expect(await check('/crawl/d', GOOGLEBOT, GOOGLE_ADDRESS)).toMatchObject({ granted: false, reason: 'blocked' });
  });

  it('allows or denies AI crawlers by User-Agent, from any address', async () => {
    await policy({ aiCrawlers: 'deny' });
    expect(await check('/crawl/e', GPTBOT, SPOOFER)).toMatchObject({ granted: false, reason: 'ai_crawler_denied', paywallRule: { name: 'Premium' } });
    await policy({ aiCrawlers: 'allow' });
    expect(await check('/crawl/e', CLAUDEBOT, SPOOFER)).toMatchObject({ granted: true, reason: 'ai_crawler_allowed' });
    expect(await check('/crawl/e', BROWSER, SPOOFER)).toMatchObject({ granted: false, reason: 'blocked' });
  });

  it('leaves pages no paywall covers alone', async () => {
    await policy({ aiCrawlers: 'deny', searchEngines: 'deny' });
    expect(await check('/free', GPTBOT, SPOOFER)).toMatchObject({ granted: true, reason: 'no_rule' });
    expect(await check('/free', GOOGLEBOT, GOOGLE_ADDRESS)).toMatchObject({ granted: true, reason: 'no_rule' });
  });

  it("counts the policy's decisions apart from readers' in the stats", async () => {
    const stats = (await system.admin('/admin/stats?interval=hour')).body;
    // Crawler decisions above: b ×2, dns ×1, d ×1 (deny), e ×2; every other check was decided as for a visitor.
    expect(stats.totals).toMatchObject({ crawlerChecks: 6 });
    expect(stats.totals.checksGranted + stats.totals.checksDenied).toBe(10);
    expect(stats.paywalls).toEqual([expect.objectContaining({ name: 'Premium', crawlerChecks: 6, checksGranted: 0 })]);
  });

  it('refuses a rule a field does not take, and needs a session', async () => {
    expect((await policy({ searchEngines: 'allow' })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'searchEngines' }] });
    expect((await system.api('/admin/crawler-policy')).body).toMatchObject({ status: 401, code: 'session_required' });
  });
});
