import type { TestBrowser } from '@gatehouse/testing';
import { eventually } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { FakeProcessorProcess, SECRET_KEY } from '../support/billing';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: catalog and processor', () => {
  let fake: FakeProcessorProcess;
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';

  beforeAll(async () => {
    fake = await FakeProcessorProcess.spawn();
    system = await DashboardSystem.start({ billing: true, processorUrl: fake.url });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    expect((await system.api('/admin/paywalls', { session, body: { name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } } })).status).toBe(201);
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Catalog' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
    await fake?.close();
  });

  it('connects the processor: the key is checked, shown masked, and the webhook created automatically', async () => {
    const processor = page.getByRole('region', { name: 'Payment processor' });
    await processor.getByText('not set up').waitFor();
    await processor.getByLabel('Secret key').fill('not-a-key');
    await processor.getByRole('button', { name: 'Check the key and save' }).click();
    await processor.getByText('A processor secret key: sk_… or rk_…').waitFor();
    await processor.getByLabel('Secret key').fill(SECRET_KEY);
    await processor.getByRole('button', { name: 'Check the key and save' }).click();
    await processor.getByText('The processor accepted the key; settings saved.').waitFor();
    await processor.getByText(`sk_...${SECRET_KEY.slice(-4)}`, { exact: false }).waitFor();
    await processor.getByText('created automatically at the processor', { exact: false }).waitFor();
    expect(await page.content()).not.toContain(SECRET_KEY);
  });

  it('sets whether paused subscribers keep reading, kept across a reload', async () => {
    const card = page.getByRole('region', { name: 'Paused subscriptions' });
    const keepReading = card.getByRole('switch', { name: 'Paused subscribers keep reading' });
    await keepReading.and(page.locator('[aria-checked="true"]')).waitFor();
    await keepReading.click();
    await card.getByText('Saved: paused subscribers see the paywall until they resume.').waitFor();
    expect((await system.api('/admin/subscription-settings', { session })).body).toEqual({ pausedAccess: 'suspend', pastDueGraceDays: null });
    await page.reload();
    await keepReading.and(page.locator('[aria-checked="false"]')).waitFor();
    await keepReading.click();
    await card.getByText('Saved: paused subscribers keep reading.').waitFor();
    expect((await system.api('/admin/subscription-settings', { session })).body).toEqual({ pausedAccess: 'keep', pastDueGraceDays: null });
  });

  it("sets how long a subscriber whose payment failed keeps reading, kept across a reload; out of range is refused", async () => {
    const card = page.getByRole('region', { name: 'Failed payments' });
    const days = card.getByLabel('Grace period in days');
    const save = card.getByRole('button', { name: 'Save grace period' });
    await days.fill('7');
    await save.click();
    await card.getByText('Saved: subscribers whose payment failed keep reading for 7 days.').waitFor();
    expect((await system.api('/admin/subscription-settings', { session })).body).toEqual({ pausedAccess: 'keep', pastDueGraceDays: 7 });
    await days.fill('61');
    await save.click();
    await card.getByRole('alert').waitFor();
    expect((await system.api('/admin/subscription-settings', { session })).body).toMatchObject({ pastDueGraceDays: 7 });
    await page.reload();
    await expect(days.inputValue()).resolves.toBe('7');
    await days.fill('');
    await save.click();
    await card.getByText('Saved: the default grace period applies.').waitFor();
    expect((await system.api('/admin/subscription-settings', { session })).body).toEqual({ pausedAccess: 'keep', pastDueGraceDays: null });
  });

  it('creates a product with its entitlement and a price in major units, and both appear at the processor', async () => {
    await page.getByRole('button', { name: 'Create your first product' }).click();
    const dialog = page.getByRole('dialog', { name: 'New product' });
    await dialog.getByLabel('Name', { exact: true }).fill('Digital access');
    await dialog.getByLabel('Premium').check();
    await dialog.getByRole('button', { name: 'Create product' }).click();
    const product = page.getByRole('region', { name: 'Digital access' });
    await product.getByText('Unlocks: Premium').waitFor();

    const form = product.getByRole('form', { name: 'Add a price' });
    await form.getByLabel('Amount').fill('9.50');
    await form.getByLabel('Trial days').fill('14');
    await form.getByRole('button', { name: 'Add price' }).click();
    const row = product.getByRole('row', { name: /€9\.50/ });
    await row.getByText('every month').waitFor();
    await row.getByText('14 days').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-catalog');

    const products = await eventually(async () => {
      const found = (await fake.requestsTo('POST', '/v1/products')).filter((r) => r.body['name'] === 'Digital access');
      return found.length > 0 ? found : undefined;
    });
    expect(products).toHaveLength(1);
    const prices = await eventually(async () => {
      const found = (await fake.requestsTo('POST', '/v1/prices')).filter((r) => String(r.body['unit_amount']) === '950');
      return found.length > 0 ? found : undefined;
    });
    expect(prices[0].body).toMatchObject({ currency: 'eur' });

    await row.getByRole('button', { name: 'Withdraw' }).click();
    await row.getByText('withdrawn').waitFor();
  });

  it('creates an offer on the price for a segment: its terms and limits are listed, its coupon and promotion code are made at the processor, and it can be ended', async () => {
    const regulars = await system.api('/admin/segments', { session, body: { name: 'Regulars', match: 'all', conditions: [{ attribute: 'visit_count', operator: 'gt', value: 2 }] } });
    expect(regulars.status).toBe(201);
    await page.getByRole('link', { name: 'Offers' }).click();
    await page.getByRole('button', { name: 'Create your first offer' }).click();
    const dialog = page.getByRole('dialog', { name: 'New offer' });
    await dialog.getByLabel('Code').fill('spring3');
    await dialog.getByLabel('Kind').selectOption('amount');
    await dialog.getByLabel('Amount off each payment').fill('3');
    await dialog.getByLabel('For how long').selectOption('repeating');
    await dialog.getByLabel('Months').fill('3');
    await dialog.getByLabel(/Digital access €9\.50/).check();
    await dialog.getByLabel('Redemptions at most (optional)').fill('100');
    await dialog.getByLabel('Readers', { exact: true }).selectOption({ label: 'in the segment Regulars' });
    await dialog.getByRole('button', { name: 'Create offer' }).click();
    await dialog.getByText('Name the offer: readers see it.').waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill('Spring: €3 for 3 months');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create offer' }).click();

    const row = page.getByRole('row', { name: /SPRING3/ });
    await row.getByText('€3.00 off for 3 months').waitFor();
    await row.getByText('Digital access €9.50; at most 100 redemptions; readers in Regulars').waitFor();
    await row.getByText('0 of 100').waitFor();
    await row.getByRole('button', { name: 'Details of SPRING3' }).click();
    await row.getByText('?offer=SPRING3', { exact: false }).first().waitFor();
    await row.getByText('in the segment Regulars').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-offers');
    const [coupon] = await fake.requestsTo('POST', '/v1/coupons');
    expect(coupon.body).toMatchObject({ amount_off: '300', currency: 'eur', duration: 'repeating', duration_in_months: '3' });
    const [promotionCode] = await fake.requestsTo('POST', '/v1/promotion_codes');
    expect(promotionCode.body).toMatchObject({ code: 'SPRING3', max_redemptions: '100' });

    await row.getByRole('button', { name: 'End SPRING3' }).click();
    await row.getByText('ended').waitFor();
    const [offer] = (await system.api('/admin/offers', { session })).body.items;
    expect(offer).toMatchObject({ code: 'SPRING3', active: false, segmentId: regulars.body.id });
    await page.getByRole('link', { name: 'Catalog' }).click();
  });

  it('edits the product loaded by id, shows a price by id, deactivates the product, and deletes the price and the product', async () => {
    const [stored] = (await system.api('/admin/products', { session })).body.items;
    const [price] = (await system.api(`/admin/products/${stored.id}/prices`, { session })).body.items;
    await page.getByRole('button', { name: 'Edit Digital access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit product' });
    await eventually(async () => ((await dialog.getByLabel('Name', { exact: true }).inputValue()) === 'Digital access' ? true : undefined));
    expect(await dialog.getByLabel('Premium').isChecked()).toBe(true);
    await dialog.getByLabel('Description (optional)').fill('Every article, every day');
    await dialog.getByLabel('Premium').uncheck();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save product' }).click();
    const product = page.getByRole('region', { name: 'Digital access' });
    await product.getByText('Unlocks: every paywall').waitFor();
    await product.getByText('Every article, every day').waitFor();
    expect((await system.api(`/admin/products/${stored.id}`, { session })).body).toMatchObject({ description: 'Every article, every day', entitlements: [], active: true });

    const row = product.getByRole('row', { name: /€9\.50/ });
    await row.getByRole('button', { name: /^Details of/ }).click();
    await row.getByText(price.id).waitFor();

    await product.getByRole('button', { name: 'Deactivate' }).click();
    await product.getByText('inactive').waitFor();
    expect((await system.api(`/admin/products/${stored.id}`, { session })).body.active).toBe(false);
    await browser.screenshot(page, 'dashboard-catalog-edited');

    await row.getByRole('button', { name: 'Delete' }).click();
    const confirmPrice = page.getByRole('alertdialog');
    await confirmPrice.getByText('refused while a subscription uses it', { exact: false }).waitFor();
    await confirmPrice.getByRole('button', { name: 'Delete price' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await system.api(`/admin/prices/${price.id}`, { session })).status).toBe(404);

    await product.getByRole('button', { name: 'Delete product' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete product' }).click();
    await page.getByText('No products yet').waitFor();
    expect((await system.api(`/admin/products/${stored.id}`, { session })).status).toBe(404);
  });
});
