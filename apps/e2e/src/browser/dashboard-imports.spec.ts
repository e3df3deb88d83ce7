import type { TestBrowser } from '@gatehouse/testing';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

const FILE = [
  'email,name,product,interval,currency,amount,current_period_end',
  'ada@example.com,Ada Lovelace,Digital,month,eur,900,2031-06-30',
  'not-an-email,Bad Address,,,,,',
  'grace@example.com,Grace Hopper,<i>Gold</i>,month,eur,900,',
  'alan@example.com,=HYPERLINK("http://evil.example"),,,,,',
].join('\n');

describe('dashboard: import and export', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';

  beforeAll(async () => {
    system = await DashboardSystem.start({ billing: true, customers: true });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    const product = await system.api('/admin/products', { session, body: { name: 'Digital' } });
    expect((await system.api(`/admin/products/${product.body.id}/prices`, { session, body: { currency: 'eur', unitAmount: 900, interval: 'month' } })).status).toBe(201);
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Import and export' }).click();
    await page.getByRole('heading', { name: 'Import and export' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('checks a file and shows each bad row with its line, imports the rest, and shows it done', async () => {
    await page.getByLabel('File').setInputFiles({ name: 'readers.csv', mimeType: 'text/csv', buffer: Buffer.from(FILE) });
    await page.getByRole('button', { name: 'Check file' }).click();
    const job = page.getByRole('region', { name: 'Import' });
    await job.getByText('Checked: nothing imported yet').waitFor();
    const problems = job.getByRole('table', { name: 'Rows with problems' });
    await problems.getByRole('row', { name: /^3 email must be an email address/ }).waitFor();
    await problems.getByRole('row', { name: /^4 no price of "<i>Gold<\/i>" at 900 eur a month/ }).waitFor();
    // Text from the file is shown as text, never as markup.
    expect(await page.locator('i', { hasText: 'Gold' }).count()).toBe(0);
    await job.getByText('Customers: 2 to create, 0 already here. Subscriptions: 1 to create, 0 already here. Rows with problems: 2.').waitFor();
    expect((await system.api('/customers?email=ada@example.com', { session })).body.items).toEqual([]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-imports-checked');

    await job.getByRole('button', { name: 'Import 2 rows' }).click();
    await job.getByText('Imported', { exact: true }).waitFor();
    await job.getByText('Customers: 2 created, 0 already here. Subscriptions: 1 created, 0 already here. Rows with problems: 2.').waitFor();
    expect(await job.getByRole('progressbar', { name: 'Rows done' }).getAttribute('aria-valuetext')).toBe('4 of 4 rows');
    const [ada] = (await system.api('/customers?email=ada@example.com', { session })).body.items;
    expect((await system.api(`/admin/subscriptions?customerId=${ada.id}`, { session })).body.items).toEqual([
      expect.objectContaining({ source: 'manual', status: 'active', currentPeriodEnd: '2031-06-30T00:00:00.000Z' }),
    ]);
    await page.getByRole('table', { name: 'Recent imports' }).getByRole('row', { name: /Imported 4 2/ }).waitFor();
    await browser.screenshot(page, 'dashboard-imports-imported');
  });

  it('downloads the export, guarded against spreadsheet formulas', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download customers.csv' }).click()]);
    expect(download.suggestedFilename()).toBe('customers.csv');
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.split('\r\n')).toEqual([
      'email,name,product,interval,currency,amount,current_period_end,processor_customer_id,processor_subscription_id',
      'ada@example.com,Ada Lovelace,Digital,month,eur,900,2031-06-30T00:00:00.000Z,,',
      `alan@example.com,"'=HYPERLINK(""http://evil.example"")",,,,,,,`,
      '',
    ]);
  });
});
