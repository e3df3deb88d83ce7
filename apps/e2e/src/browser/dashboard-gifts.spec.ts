import type { TestBrowser } from '@gatehouse/testing';
import { eventually } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { FakeProcessorProcess, SECRET_KEY, WEBHOOK_SECRET } from '../support/billing';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

/** The Gifts screen (issue #25 item 2): the publication's gifts as bought by readers, and a void before redemption. */
describe('dashboard: gifts', () => {
  let fake: FakeProcessorProcess;
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';
  let paidId = '';
  let unpaidId = '';

  beforeAll(async () => {
    fake = await FakeProcessorProcess.spawn();
    system = await DashboardSystem.start({ billing: true, processorUrl: fake.url });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    const publicationId: string = (await system.api('/admin/session', { session })).body.publication.id;
    expect((await system.api('/admin/processor', { method: 'PUT', session, body: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } })).status).toBe(200);
    const product = (await system.api('/admin/products', { session, body: { name: 'Digital access' } })).body;
    const price = (await system.api(`/admin/products/${product.id}/prices`, { session, body: { currency: 'eur', unitAmount: 900, interval: 'month' } })).body;
    const { publishableKey } = (await system.api('/admin/api-keys', { session, body: { name: 'site' } })).body;
    // Bought by readers: one paid (sent next week), one whose buyer left the checkout; a reader's name is their own text, shown as text.
    const order = (recipientName: string) =>
      system.api('/gifts', {
        key: publishableKey,
        body: {
          priceId: price.id,
          months: 6,
          recipientEmail: 'friend@example.com',
          recipientName,
          buyerName: 'Grace',
          buyerEmail: 'grace@example.com',
          sendAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          successUrl: 'https://daily.example/thanks',
          cancelUrl: 'https://daily.example/gift',
        },
      });
    const paid = (await order('<img src=x onerror=alert(1)>Ada')).body;
    const unpaid = (await order('Bob')).body;
    [paidId, unpaidId] = [paid.giftId, unpaid.giftId];
    for (const event of (await fake.completeCheckout(paid.sessionId)).events) {
      expect((await fake.deliver(`${system.gateway.url}/api/v1/webhooks/processor?publication=${publicationId}`, WEBHOOK_SECRET, event)).status).toBe(200);
    }
    await eventually(async () => ((await system.api(`/admin/gifts/${paidId}`, { session })).body.status === 'purchased' ? true : undefined));
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Gifts' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
    await fake?.close();
  });

  it('lists the gifts with what they give and where they stand; Details shows their ids; Void refuses a paid one’s code', async () => {
    const paidRow = page.getByRole('row', { name: /<img src=x onerror=alert\(1\)>Ada/ });
    await paidRow.waitFor();
    await paidRow.getByText('Digital access, 6 months').waitFor();
    await paidRow.getByText('€54.00').waitFor();
    await paidRow.getByText('paid', { exact: true }).waitFor();
    await paidRow.getByText(/^To be emailed on \d{1,2} \w{3} \d{4}$/).waitFor();
    const unpaidRow = page.getByRole('row', { name: /Bob/ });
    await unpaidRow.getByText('not paid').waitFor();
    await unpaidRow.getByText('Checkout not completed').waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await unpaidRow.getByRole('button', { name: 'Details of the gift to Bob' }).click();
    await unpaidRow.getByText(unpaidId).waitFor();
    await browser.screenshot(page, 'dashboard-gifts');

    await paidRow.getByRole('button', { name: /^Void the gift to / }).click();
    await paidRow.getByText('voided', { exact: true }).waitFor();
    await paidRow.getByText(/^Refunded /).waitFor();
    expect(await paidRow.getByRole('button', { name: /^Void/ }).count()).toBe(0);
    expect((await system.api(`/admin/gifts/${paidId}`, { session })).body).toMatchObject({ status: 'voided', voidReason: 'refunded' });
  });
});
