import type { PaywallView } from '@gatehouse/contracts';
import { launchBrowser, type TestBrowser } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { PublisherSite, type PageRecord } from '../support/publisher-site';
import { WholeSystem } from '../support/system-all';

const LONG = 120_000;
const PASSWORD = 'reader-password-1';

/**
 * Passes and single articles in real Chromium (issue #25 item 4): the inline paywall on a
 * publisher's page offers the rule's pass and single article beside the subscription plan; the
 * reader chooses one, pays at the fake processor's checkout page, comes back, and the article opens.
 */
describe('a pass and a single article bought from the paywall', () => {
  let system: WholeSystem;
  let site: PublisherSite;
  let browser: TestBrowser;
  let premium: PaywallView;

  beforeAll(async () => {
    system = await WholeSystem.start({ domains: ['127.0.0.1'] });
    premium = await system.paywall({ name: 'Premium', type: 'hard', presentation: 'inline', match: { include: ['/premium/**'] } });
    const product = await system.product({ name: 'Digital' });
    const [, pass, article] = await Promise.all([
      system.price(product.id, { currency: 'eur', unitAmount: 900, interval: 'month' }),
      system.price(product.id, { currency: 'eur', unitAmount: 200, interval: 'pass', passHours: 24 }),
      system.price(product.id, { currency: 'eur', unitAmount: 99, interval: 'single_article' }),
    ]);
    const offered = await system.admin(`/admin/paywalls/${premium.id}`, { method: 'PATCH', body: { oneTimePriceIds: [pass.id, article.id] } });
    expect(offered.status).toBe(200);
    site = await PublisherSite.start(system.url, system.publishableKey);
    browser = await launchBrowser();
  }, LONG);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await system?.close();
  }, LONG);

  const record = (page: Page): Promise<PageRecord> => page.evaluate(() => (globalThis as any).record);
  const lastAccess = async (page: Page) => (await record(page)).access.at(-1);

  /** A reader signed in through the SDK on a paywalled page of the site, the paywall showing. */
  async function signedInOn(path: string): Promise<Page> {
    const reader = { email: `passes-${randomUUID()}@example.com`, password: PASSWORD, name: 'Pat Reader' };
    expect((await system.api('/auth/customers/register', { key: system.publishableKey, body: reader })).status).toBe(201);
    const page = await browser.newPage();
    await page.goto(site.url(path));
    await page.waitForFunction(() => (globalThis as any).record.access.length > 0, undefined, { timeout: 30_000 });
    await page.evaluate(async ([email, password]) => {
      const gatehouse = (globalThis as any).gatehouse;
      await gatehouse.login({ email, password });
      await gatehouse.checkAccess();
    }, [reader.email, reader.password] as const);
    await page.waitForFunction(() => (globalThis as any).record.access.some((r: any) => r.customerId), undefined, { timeout: 30_000 });
    return page;
  }

  /** Pays at the fake processor's checkout page and waits for the site's page to confirm it and check again. */
  async function payAndReturn(page: Page, path: string): Promise<void> {
    await page.waitForURL((url) => url.toString().startsWith(`${system.fake.url}/checkout/cs_`), { timeout: 30_000 });
    await expect(page.locator('body').textContent()).resolves.toContain('payment for');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.toString().startsWith(site.url(path)), { timeout: 30_000 });
    await page.waitForFunction(() => (globalThis as any).record.access.at(-1)?.granted === true, undefined, { timeout: 30_000 });
  }

  it(
    'shows the pass beside the subscription; choosing it completes checkout at the fake processor and the article unlocks',
    async () => {
      const page = await signedInOn('/premium/story?elements');
      const plan = page.getByRole('radio', { name: /Digital.*€9.00 a month/ });
      const pass = page.getByRole('radio', { name: /1-day pass.*€2.00/ });
      await pass.waitFor({ timeout: 30_000 });
      await expect(plan.isChecked()).resolves.toBe(true);
      await expect(page.getByRole('radio', { name: /This article only.*€0.99/ }).isVisible()).resolves.toBe(true);
      await browser.screenshot(page, 'paywall-pass-choices');

      await pass.check();
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await payAndReturn(page, '/premium/story');
      expect(await lastAccess(page)).toMatchObject({ granted: true, reason: 'pass' });
      await page.getByText('Thank you for your purchase. Enjoy reading!').waitFor({ timeout: 10_000 });
      await expect(page.getByRole('radio').count()).resolves.toBe(0);
      await browser.screenshot(page, 'paywall-pass-bought');

      // Every premium page is open for the day.
      await page.goto(site.url('/premium/another-story?elements'));
      await page.waitForFunction(() => (globalThis as any).record.access.length > 0, undefined, { timeout: 30_000 });
      expect(await lastAccess(page)).toMatchObject({ granted: true, reason: 'pass' });
      await page.close();
    },
    LONG,
  );

  it(
    'buys the article the reader is on from the paywall: that article opens, and no other',
    async () => {
      const page = await signedInOn('/premium/long-read?elements');
      const article = page.getByRole('radio', { name: /This article only.*€0.99/ });
      await article.waitFor({ timeout: 30_000 });
      await article.check();
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await payAndReturn(page, '/premium/long-read');
      expect(await lastAccess(page)).toMatchObject({ granted: true, reason: 'single_article' });

      await page.goto(site.url('/premium/other-read?elements'));
      await page.waitForFunction(() => (globalThis as any).record.access.length > 0, undefined, { timeout: 30_000 });
      expect(await lastAccess(page)).toMatchObject({ granted: false, reason: 'blocked', paywallRule: { paywallId: premium.id } });
      await page.getByRole('radio', { name: /1-day pass.*€2.00/ }).waitFor({ timeout: 30_000 });
      await page.close();
    },
    LONG,
  );
});
