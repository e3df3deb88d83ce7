import { eventually, type TestBrowser } from '@gatehouse/testing';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { FakeProcessorProcess, SECRET_KEY, WEBHOOK_SECRET } from '../support/billing';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: customers and subscriptions', () => {
  let fake: FakeProcessorProcess;
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';
  let customerId = '';

  beforeAll(async () => {
    fake = await FakeProcessorProcess.spawn();
    system = await DashboardSystem.start({ billing: true, customers: true, processorUrl: fake.url });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    const publicationId: string = (await system.api('/admin/session', { session })).body.publication.id;
    expect((await system.api('/admin/processor', { method: 'PUT', session, body: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } })).status).toBe(200);
    const product = await system.api('/admin/products', { session, body: { name: 'Digital' } });
    expect(product.status).toBe(201);
    const price = (body: object) => system.api(`/admin/products/${product.body.id}/prices`, { session, body: { currency: 'eur', trialDays: 0, active: true, ...body } });
    expect((await price({ unitAmount: 900, interval: 'month' })).status).toBe(201);
    const [dayPass, article] = [(await price({ unitAmount: 200, interval: 'pass', passHours: 24 })).body, (await price({ unitAmount: 99, interval: 'single_article' })).body];
    await system.api('/customers', { session, body: { email: 'someone.else@example.com', name: 'Someone Else' } });
    customerId = (await system.api('/customers', { session, body: { email: 'reader@example.com', name: 'Rita Reader' } })).body.id;
    // Rita bought a day pass and one article at the processor; its events reached billing.
    const { secretKey } = (await system.api('/admin/api-keys', { session, body: { name: 'server' } })).body;
    for (const [priceId, extra] of [[dayPass.id, {}], [article.id, { articleUrl: 'https://daily.example/premium/long-read' }]] as const) {
      const checkout = await system.api('/subscriptions/checkout', { key: secretKey, body: { priceId, customerId, successUrl: 'https://daily.example/ok', cancelUrl: 'https://daily.example/no', ...extra } });
      expect(checkout.status).toBe(201);
      for (const event of (await fake.completeCheckout(checkout.body.sessionId)).events) {
        expect((await fake.deliver(`${system.gateway.url}/api/v1/webhooks/processor?publication=${publicationId}`, WEBHOOK_SECRET, event)).status).toBe(200);
      }
    }
    await eventually(async () => ((await system.api(`/admin/customers/${customerId}/purchases`, { session })).body.purchases?.length === 2 ? true : undefined));
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Customers' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
    await fake?.close();
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

  it('shows the passes and single articles the customer bought, beside the subscriptions', async () => {
    const customer = page.getByRole('region', { name: 'Rita Reader' });
    const table = customer.getByRole('table', { name: 'Passes and single articles of reader@example.com' });
    const [pass] = (await system.api(`/admin/customers/${customerId}/purchases`, { session })).body.purchases.filter((p: { kind: string }) => p.kind === 'pass');
    const until = await page.evaluate((iso) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }), pass.endsAt as string);
    const passRow = table.getByRole('row').filter({ hasText: 'a 1-day pass' });
    await passRow.getByRole('cell', { name: 'Digital, €2.00 once, a 1-day pass' }).waitFor();
    await passRow.getByRole('cell', { name: `Until ${until}` }).waitFor();
    await passRow.getByText('pass', { exact: true }).waitFor();
    const articleRow = table.getByRole('row').filter({ hasText: 'for one article' });
    await articleRow.getByText('single article', { exact: true }).waitFor();
    await expect(articleRow.getByRole('link', { name: 'https://daily.example/premium/long-read' }).getAttribute('href')).resolves.toBe('https://daily.example/premium/long-read');
    // Bought, never granted: the grant offers no pass or article price.
    await expect(customer.getByLabel('Grant a subscription to').locator('option').allTextContents()).resolves.toEqual(['Digital, €9.00 a month']);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-customers-purchases');
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
