import type { TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

/** Passes and single articles in the dashboard (issue #25 item 4): staff add one-time prices with a pass's hours, and a paywall offers them. */
describe('dashboard: passes and single articles', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';
  let productId = '';
  let paywallId = '';

  beforeAll(async () => {
    system = await DashboardSystem.start({ billing: true });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    paywallId = (await system.api('/admin/paywalls', { session, body: { name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } } })).body.id;
    productId = (await system.api('/admin/products', { session, body: { name: 'Reading' } })).body.id;
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  const prices = async () => (await system.api(`/admin/products/${productId}/prices`, { session })).body.items;

  it('adds a time pass with its hours (refusing hours out of range) and a single-article price', async () => {
    await page.getByRole('link', { name: 'Catalog' }).click();
    const product = page.getByRole('region', { name: 'Reading' });
    const form = product.getByRole('form', { name: 'Add a price' });
    await form.getByLabel('Interval').selectOption('pass');
    await expect(form.getByLabel('Trial days').count()).resolves.toBe(0);
    await form.getByLabel('Amount').fill('2');
    await form.getByLabel('Pass hours').fill('0');
    await form.getByRole('button', { name: 'Add price' }).click();
    await form.getByText('Whole hours, 1 to 8760 (24: a day pass; 168: a week).').waitFor();
    expect(await prices()).toEqual([]);

    await form.getByLabel('Pass hours').fill('168');
    await form.getByRole('button', { name: 'Add price' }).click();
    await product.getByRole('row', { name: /€2\.00/ }).getByText('once, a 7-day pass').waitFor();

    await form.getByLabel('Interval').selectOption('single_article');
    await form.getByLabel('Amount').fill('0.99');
    await form.getByRole('button', { name: 'Add price' }).click();
    await product.getByRole('row', { name: /€0\.99/ }).getByText('once, for one article').waitFor();
    expect(await prices()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ interval: 'pass', passHours: 168, unitAmount: 200, trialDays: 0 }),
        expect.objectContaining({ interval: 'single_article', passHours: null, unitAmount: 99 }),
      ]),
    );
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-passes-catalog');
  });

  it('picks the pass and the single article on a paywall, saved to the service', async () => {
    const [pass, article] = [...(await prices())].sort((a: { unitAmount: number }, b: { unitAmount: number }) => b.unitAmount - a.unitAmount);
    await page.getByRole('link', { name: 'Paywalls' }).click();
    await page.getByRole('button', { name: 'Edit Premium' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Premium' });
    const offered = dialog.getByRole('group', { name: 'Passes and single articles offered beside the plans' });
    await offered.getByLabel(/Reading €2\.00 once, a 7-day pass/).check();
    await offered.getByLabel(/Reading €0\.99 once, for one article/).check();
    await browser.screenshot(page, 'dashboard-passes-paywall');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await system.api(`/admin/paywalls/${paywallId}`, { session })).body.oneTimePriceIds.sort()).toEqual([pass.id, article.id].sort());

    // Opened again, the editor shows what is saved.
    await page.getByRole('button', { name: 'Edit Premium' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit Premium' }).getByLabel(/once, a 7-day pass/).isChecked()).resolves.toBe(true);
  });
});
