import { eventually, type TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: stats', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';
  let expected: any;

  beforeAll(async () => {
    system = await DashboardSystem.start({ billing: true });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    const key = (await system.api('/admin/api-keys', { session, body: { name: 'site' } })).body.publishableKey;
    const paywallId = (await system.api('/admin/paywalls', { session, body: { name: '=Premium', type: 'hard', match: { include: ['/premium/**'] } } })).body.id;
    const check = (path: string) => system.api(`/access/check?url=${encodeURIComponent(`https://daily.example${path}`)}`, { key });
    for (const path of ['/news/1', '/news/2', '/news/3', '/premium/1', '/premium/2']) expect((await check(path)).status).toBe(200);
    const event = (type: string, i: number) => ({ type, url: `https://daily.example/premium/${i}`, userId: `reader-${i}`, paywallId });
    const sent = await system.api('/events', { key, body: { events: [0, 1, 2, 3].map((i) => event('paywall_shown', i)).concat([event('paywall_dismissed', 0), event('paywall_converted', 1)]) } });
    expect(sent.status).toBe(202);

    const today = new Date().toISOString().slice(0, 10);
    const to = new Date(new Date(`${today}T00:00:00.000Z`).getTime() + 86_400_000).toISOString();
    const from = new Date(new Date(`${today}T00:00:00.000Z`).getTime() - 6 * 86_400_000).toISOString();
    expected = await eventually(async () => {
      const answer = (await system.api(`/admin/stats?from=${from}&to=${to}&interval=day`, { session })).body;
      return answer.totals?.shown === 4 && answer.totals.checksDenied === 2 ? answer : undefined;
    }, 20_000);

    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Stats' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('shows the totals, charts and tables of the last seven days as the stats API counts them', async () => {
    const totals = page.getByRole('region', { name: 'Totals' });
    for (const [name, value] of [
      ['Checks granted', expected.totals.checksGranted],
      ['Checks denied', expected.totals.checksDenied],
      ['Paywall shown', expected.totals.shown],
      ['Dismissed', expected.totals.dismissed],
      ['Converted', expected.totals.converted],
    ]) {
      await totals.getByLabel(name, { exact: true }).filter({ hasText: new RegExp(`^${value}$`) }).waitFor();
    }
    await totals.getByLabel('Conversion rate').filter({ hasText: '25.0 %' }).waitFor();
    expect(expected.totals).toMatchObject({ checksGranted: 3, checksDenied: 2, shown: 4, dismissed: 1, converted: 1 });

    const today = new Date().toISOString().slice(0, 10);
    const bucket = expected.series.find((b: { start: string }) => b.start.startsWith(today));
    const checks = page.getByRole('region', { name: 'Access checks' });
    await checks.locator('svg.recharts-surface').first().waitFor();
    await checks.getByRole('row', { name: `${today} ${bucket.checksGranted} ${bucket.checksDenied}` }).waitFor();
    const funnel = page.getByRole('region', { name: 'Paywall funnel' });
    await funnel.getByRole('row', { name: `${today} ${bucket.shown} ${bucket.dismissed} ${bucket.converted} 25.0 %` }).waitFor();
    const perPaywall = page.getByRole('region', { name: 'Per paywall' });
    await perPaywall.getByRole('row', { name: /^=Premium 0 2 4 1 1 25\.0 %$/ }).waitFor();
    // A name staff typed opens in a spreadsheet as text, never as a formula.
    const perPaywallCsv = decodeURIComponent((await perPaywall.getByRole('link', { name: 'Download per-paywall.csv' }).getAttribute('href')) ?? '');
    expect(perPaywallCsv).toMatch(/\r\n'=Premium,/);
    expect(expected.series).toHaveLength(7);

    const csv = decodeURIComponent((await funnel.getByRole('link', { name: 'Download paywall-funnel.csv' }).getAttribute('href')) ?? '');
    expect(csv).toContain(`Period,Shown,Dismissed,Converted,Conversion rate\r\n`);
    expect(csv).toContain(`${today},4,1,1,25.0 %\r\n`);
    const { linksCreated, opens, conversions } = expected.sharing;
    await page.getByRole('region', { name: 'Shared articles' }).getByRole('row', { name: `${linksCreated} ${opens} ${conversions}` }).waitFor();
    const { passes, singleArticles } = expected.purchases;
    await page.getByRole('region', { name: 'One-time purchases' }).getByRole('row', { name: `${passes} ${singleArticles}` }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-stats');
  });
});
