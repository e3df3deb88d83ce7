import type { TestBrowser } from '@gatehouse/testing';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: customers and subscriptions', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';
  let customerId = '';

  beforeAll(async () => {
    system = await DashboardSystem.start({ billing: true, customers: true });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    const product = await system.api('/admin/products', { session, body: { name: 'Digital' } });
    expect(product.status).toBe(201);
    expect((await system.api(`/admin/products/${product.body.id}/prices`, { session, body: { currency: 'eur', unitAmount: 900, interval: 'month', trialDays: 0, active: true } })).status).toBe(201);
    await system.api('/customers', { session, body: { email: 'someone.else@example.com', name: 'Someone Else' } });
    customerId = (await system.api('/customers', { session, body: { email: 'reader@example.com', name: 'Rita Reader' } })).body.id;
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Customers' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('finds a customer by email, grants a subscription until a date, and cancels it at period end', async () => {
    await page.getByLabel('Find by email').fill(' Reader@Example.com ');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Open reader@example.com' }).click();
    const customer = page.getByRole('region', { name: 'Rita Reader' });
    await customer.getByText('No subscriptions. Grant one below.').waitFor();
    expect(await page.getByText('someone.else@example.com').count()).toBe(0);

    await customer.getByLabel('Grant a subscription to').selectOption({ label: 'Digital, €9.00 a month' });
    await customer.getByLabel('Until (optional)').fill('2031-06-30');
    await customer.getByRole('button', { name: 'Grant' }).click();
    await customer.getByText('Granted until 30 Jun 2031.').waitFor();
    const row = customer.getByRole('row', { name: /active/ });
    await row.getByText('Digital, €9.00 a month').waitFor();
    await row.getByText('manual').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await row.getByRole('button', { name: 'Cancel at period end' }).click();
    await customer.getByText('It ends on 30 Jun 2031.').waitFor();
    await row.getByText('ends at period end').waitFor();
    const [subscription] = (await system.api(`/admin/subscriptions?customerId=${customerId}`, { session })).body.items;
    expect(subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, source: 'manual', currentPeriodEnd: '2031-06-30T23:59:59.000Z' });
    await browser.screenshot(page, 'dashboard-customers-subscription');
  });

  it("shows a subscription's history from its own dates, loaded by id", async () => {
    const customer = page.getByRole('region', { name: 'Rita Reader' });
    const [subscription] = (await system.api(`/admin/subscriptions?customerId=${customerId}`, { session })).body.items;
    await customer.getByRole('row', { name: /active/ }).getByRole('button', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: 'Subscription history' });
    const history = dialog.getByRole('list', { name: 'History' });
    await history.getByText('Granted by staff').waitFor();
    await history.getByRole('listitem').filter({ hasText: 'Ends (cancelled at period end)' }).getByText('30 Jun 2031', { exact: false }).waitFor();
    await dialog.getByText(`Subscription id ${subscription.subscriptionId}`).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-customers-history');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('edits the customer: name and email', async () => {
    const customer = page.getByRole('region', { name: 'Rita Reader' });
    await customer.getByRole('button', { name: 'Edit customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit reader@example.com' });
    await dialog.getByLabel('Email').fill('someone.else@example.com');
    await dialog.getByRole('button', { name: 'Save customer' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByLabel('Email').fill('rita@example.com');
    await dialog.getByLabel('Name').fill('Rita Reader-Smith');
    await dialog.getByRole('button', { name: 'Save customer' }).click();
    await page.getByRole('region', { name: 'Rita Reader-Smith' }).getByText('rita@example.com · customer since', { exact: false }).waitFor();
    expect((await system.api('/customers?email=rita@example.com', { session })).body.items).toEqual([expect.objectContaining({ id: customerId, name: 'Rita Reader-Smith' })]);
  });

  it("downloads the customer's data, then erases them after a confirmation that says what goes", async () => {
    const customer = page.getByRole('region', { name: 'Rita Reader-Smith' });
    const [download] = await Promise.all([page.waitForEvent('download'), customer.getByRole('button', { name: 'Download data' }).click()]);
    expect(download.suggestedFilename()).toBe(`personal-data-${customerId}.json`);
    const saved = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(saved).toMatchObject({
      format: 'gatehouse.personal-data.v1',
      customer: { id: customerId, email: 'rita@example.com', name: 'Rita Reader-Smith' },
      subscriptions: [expect.objectContaining({ source: 'manual', cancelAtPeriodEnd: true })],
    });
    await customer.getByText(`Their data is saved as personal-data-${customerId}.json.`, { exact: false }).waitFor();

    await customer.getByRole('button', { name: 'Erase customer' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Erase rita@example.com?' });
    await confirm.getByText('Everything held about them is deleted in every service', { exact: false }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Erase customer' }).click();
    await customer.waitFor({ state: 'detached' });
    await page.getByText('No customer with the email rita@example.com').waitFor();
    expect((await system.api('/customers?email=rita@example.com', { session })).body.items).toEqual([]);
    expect((await system.api(`/customers/${customerId}/export`, { session })).body).toMatchObject({ status: 404, code: 'not_found' });
    await browser.screenshot(page, 'dashboard-customers-erased');
  });

  it('creates a customer without a password, found afterwards by email', async () => {
    await page.getByRole('button', { name: 'New customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'New customer' });
    await dialog.getByText('Created without a password', { exact: false }).waitFor();
    await dialog.getByLabel('Email').fill('nina@example.com');
    await dialog.getByLabel('Name').fill('Nina New');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create customer' }).click();
    const customer = page.getByRole('region', { name: 'Nina New' });
    await customer.getByText('no password: cannot sign in', { exact: false }).waitFor();
    await customer.getByText('No subscriptions. Grant one below.').waitFor();
    expect((await system.api('/customers?email=nina@example.com', { session })).body.items).toEqual([expect.objectContaining({ name: 'Nina New', hasPassword: false })]);
  });
});
