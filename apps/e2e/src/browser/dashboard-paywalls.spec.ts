import { eventually, type TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { PHONE } from '../support/access';
import { sessionFrom } from '../support/http';
import { querySchema } from '../support/system';
import { DashboardSystem, openAndCloseEditorLink, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: paywalls', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';
  let publishableKey = '';
  const paywalls = async () => (await system.api('/admin/paywalls', { session })).body.items as Array<{ name: string; priority: number; enabled: boolean; [k: string]: unknown }>;
  const check = (path: string, userId: string) => system.api(`/access/check?url=${encodeURIComponent(`https://daily.example${path}`)}&userId=${userId}`, { key: publishableKey, headers: { 'User-Agent': PHONE } });

  beforeAll(async () => {
    system = await DashboardSystem.start();
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    publishableKey = (await system.api('/admin/api-keys', { session, body: { name: 'site' } })).body.publishableKey;
    const segment = await system.api('/admin/segments', { session, body: { name: 'Mobile readers', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] } });
    expect(segment.status).toBe(201);
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Paywalls' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('creates a metered paywall with a segment and path patterns, which then decides access checks', async () => {
    await page.getByRole('button', { name: 'Create your first paywall' }).click();
    const dialog = page.getByRole('dialog', { name: 'New paywall' });
    await dialog.getByLabel('Name').fill('Two free a week on mobile');
    await dialog.getByLabel('Type').selectOption('metered');
    await dialog.getByLabel('Free articles').fill('two');
    await dialog.getByRole('button', { name: 'Create paywall' }).click();
    await dialog.getByText('A whole number of free articles.').waitFor();
    // The rest is the schema the access service checks paywall settings with.
    await dialog.getByLabel('Free articles').fill('20000');
    await dialog.getByRole('button', { name: 'Create paywall' }).click();
    await dialog.getByText('Must be a whole number from 1 to 10000.').waitFor();
    await dialog.getByLabel('Free articles').fill('2');
    await dialog.getByLabel('Per').selectOption('week');
    await dialog.getByLabel('Paths it covers').fill('/premium/**');
    await dialog.getByLabel('Paths it leaves free').fill('/premium/free-*');
    await dialog.getByLabel('Segment').selectOption({ label: 'Mobile readers' });
    await dialog.getByLabel('Presentation').selectOption('inline');
    await dialog.getByLabel('Heading').fill('You have read your free articles');
    await dialog.getByLabel('Button text').fill('Keep reading');
    // The reader's-eye preview: the real element of the presentation, with the unsaved copy.
    const preview = dialog.getByTestId('paywall-preview');
    await preview.locator('gatehouse-inline-paywall').getByRole('heading', { name: 'You have read your free articles' }).waitFor();
    expect(await preview.locator('gatehouse-inline-paywall [part="primary-button"]').textContent()).toBe('Keep reading');
    await dialog.getByLabel('Presentation').selectOption('sticky_bar');
    await preview.locator('gatehouse-sticky-bar').getByRole('heading', { name: 'You have read your free articles' }).waitFor();
    expect(await preview.locator('gatehouse-inline-paywall').count()).toBe(0);
    await dialog.getByLabel('Presentation').selectOption('inline');
    await preview.locator('gatehouse-inline-paywall').getByRole('heading', { name: 'You have read your free articles' }).waitFor();
    await browser.screenshot(page, 'dashboard-paywalls-preview');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create paywall' }).click();

    const item = page.getByRole('listitem', { name: 'Two free a week on mobile' });
    await item.getByText('Mobile readers').waitFor();
    await item.getByText('not /premium/free-*').waitFor();
    const [stored] = await paywalls();
    expect(stored).toMatchObject({ type: 'metered', config: { limit: 2, period: 'week' }, match: { include: ['/premium/**'], exclude: ['/premium/free-*'] }, presentation: 'inline', enabled: true });

    const reader = `reader-${Date.now()}`;
    expect((await check('/premium/a', reader)).body).toMatchObject({ granted: true, reason: 'meter_allowance', meter: { limit: 2, used: 1 } });
    expect((await check('/premium/b', reader)).body).toMatchObject({ granted: true, meter: { used: 2, remaining: 0 } });
    expect((await check('/premium/c', reader)).body).toMatchObject({ granted: false, reason: 'blocked', paywallRule: { name: 'Two free a week on mobile' } });
    expect((await check('/premium/free-1', reader)).body).toMatchObject({ granted: true, reason: 'no_rule' });
    await browser.screenshot(page, 'dashboard-paywalls-created');
  });

  it('reorders paywalls and switches one off, and the order and switch are what the API keeps', async () => {
    expect((await system.api('/admin/paywalls', { session, body: { name: 'Everything else', type: 'hard', match: { include: ['/**'] }, priority: 500 } })).status).toBe(201);
    await page.reload();
    const order = page.getByRole('list', { name: 'Paywalls in priority order' }).getByRole('listitem');
    await order.nth(1).getByText('Everything else').waitFor();

    await page.getByRole('button', { name: 'Move Everything else up' }).click();
    await order.nth(0).getByText('Everything else').waitFor();
    expect((await paywalls()).map((p) => p.name)).toEqual(['Everything else', 'Two free a week on mobile']);

    await page.getByRole('switch', { name: 'Enabled: Everything else' }).press('Space');
    await page.getByRole('listitem', { name: 'Everything else' }).getByText('Off', { exact: true }).waitFor();
    expect((await paywalls()).find((p) => p.name === 'Everything else')?.enabled).toBe(false);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-paywalls-ordered');
  });

  it('tries URLs as an anonymous visitor in the panel, shows the decision and why, and counts nothing', async () => {
    const counted = async () => (await querySchema<{ n: string }>(system.db.url, 'access', 'SELECT COALESCE(sum(checks_granted + checks_denied), 0) AS n FROM hourly_stats'))[0].n;
    // Checks are rolled up asynchronously: wait for the first test's four, so none lands mid-test.
    const before = await eventually(async () => ((await counted()) === '4' ? '4' : undefined));
    const panel = page.getByRole('region', { name: 'Try a URL' });
    await panel.getByLabel('Page URL').fill('https://daily.example/premium/2031/story');
    await panel.getByLabel('Device').selectOption('mobile');
    await panel.getByRole('button', { name: 'Try' }).click();
    await panel.getByRole('status').filter({ hasText: 'Denied: the paywall applies — paywall “Two free a week on mobile” (metered, shown as inline)' }).waitFor();
    await browser.screenshot(page, 'dashboard-paywalls-try-url');

    await panel.getByLabel('Device').selectOption('tablet');
    await panel.getByRole('button', { name: 'Try' }).click();
    await panel.getByRole('status').filter({ hasText: 'Granted: no enabled paywall covers this page for this visitor' }).waitFor();

    await panel.getByLabel('Page URL').fill('https://elsewhere.example/premium/1');
    await panel.getByRole('button', { name: 'Try' }).click();
    await panel.getByRole('alert').filter({ hasText: 'elsewhere.example' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(await counted()).toBe(before);
  });

  it('opens the editor from a link to it, loading the paywall by id, and the link closes with it', async () => {
    const [first] = (await system.api('/admin/paywalls', { session })).body.items;
    await openAndCloseEditorLink(page, system, 'paywalls', first);

    await page.goto(`${system.url}/paywalls?edit=00000000-0000-4000-8000-000000000000`);
    await page.getByRole('dialog', { name: 'Edit paywall' }).getByRole('alert').waitFor();
  });

  it('sets the crawler policy: AI crawlers refused, search engines let through', async () => {
    await page.goto(`${system.url}/paywalls`);
    const crawlers = page.getByRole('region', { name: 'Crawlers' });
    await crawlers.getByText('Never changed: both are decided as for any visitor.').waitFor();
    // Next to the option: letting AI crawlers read opens the page to anyone who claims to be one.
    await crawlers.getByLabel('AI crawlers').selectOption({ label: 'Let them read the page' });
    await expect(crawlers.getByLabel('AI crawlers').getAttribute('aria-describedby')).resolves.toBeTruthy();
    await crawlers.getByText('makes covered pages free to anyone who sends an AI crawler’s User-Agent', { exact: false }).waitFor();
    await crawlers.getByLabel('AI crawlers').selectOption({ label: 'Refuse the page' });
    await crawlers.getByLabel('Search engines').selectOption({ label: 'Let them read the page' });
    await crawlers.getByRole('button', { name: 'Save crawler policy' }).click();
    await crawlers.getByText('Saved: the next access check follows it.').waitFor();
    expect((await system.api('/admin/crawler-policy', { session })).body).toMatchObject({ searchEngines: 'grant', aiCrawlers: 'deny' });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.reload();
    expect(await page.getByRole('region', { name: 'Crawlers' }).getByLabel('AI crawlers').inputValue()).toBe('deny');
  });

  it("sets the shared articles' limits, and refuses one out of range", async () => {
    await page.goto(`${system.url}/paywalls`);
    const sharing = page.getByRole('region', { name: 'Shared articles' });
    await expect(sharing.getByLabel('Opens per link').inputValue()).resolves.toBe('5');
    await sharing.getByLabel('Opens per link').fill('3');
    await sharing.getByLabel('Links per subscriber a month').fill('4');
    await sharing.getByRole('button', { name: 'Save sharing settings' }).click();
    await sharing.getByText('Saved: new links follow it', { exact: false }).waitFor();
    expect((await system.api('/admin/share-settings', { session })).body).toMatchObject({ enabled: true, opensPerLink: 3, linkLifetimeHours: 168, monthlyAllowance: 4 });
    // Out of range: the form refuses it and nothing changes.
    await sharing.getByLabel('Opens per link').fill('0');
    await sharing.getByRole('button', { name: 'Save sharing settings' }).click();
    await expect(sharing.getByLabel('Opens per link').evaluate((input) => (input as HTMLInputElement).validity.rangeUnderflow)).resolves.toBe(true);
    expect((await system.api('/admin/share-settings', { session })).body).toMatchObject({ opensPerLink: 3 });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
