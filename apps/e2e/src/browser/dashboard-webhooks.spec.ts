import { OUTBOUND_EVENT_NAMES } from '@gatehouse/contracts';
import { eventually, type TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';
import { verifiesServiceSignature, WebhookReceiver } from '../support/webhooks';

jest.setTimeout(120_000);

describe('dashboard: outbound webhooks', () => {
  let system: DashboardSystem;
  let receiver: WebhookReceiver;
  let browser: TestBrowser;
  let page: Page;
  let secret = '';

  beforeAll(async () => {
    [system, receiver] = await Promise.all([DashboardSystem.start(), WebhookReceiver.start()]);
    receiver.answer('/hook', () => ({ status: 200, body: 'received by the publisher' }));
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Webhooks' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await system?.close();
  });

  it('creates a webhook to a local receiver with grouped event checkboxes, and shows the signing secret once', async () => {
    await page.getByRole('button', { name: 'Add your first webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    for (const event of OUTBOUND_EVENT_NAMES) await dialog.getByRole('checkbox', { name: event, exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await dialog.getByText('Choose at least one event.').waitFor();

    await dialog.getByLabel('Endpoint URL').fill(`${receiver.url}/hook`);
    await dialog.getByRole('group', { name: 'Subscriptions' }).getByRole('checkbox', { name: 'subscription.created' }).check();
    await dialog.getByRole('checkbox', { name: 'customer.deleted' }).check();
    await dialog.getByLabel('Description (optional)').fill('Our CRM');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Add webhook' }).click();

    const shown = page.getByRole('dialog', { name: 'Webhook created' });
    secret = (await shown.locator('[data-secret="Signing secret"]').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    await browser.screenshot(page, 'dashboard-webhooks-secret');
    await shown.getByRole('button', { name: 'I have saved it' }).click();
    await page.getByRole('heading', { name: `${receiver.url}/hook` }).waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('sends a test event, shows the delivery in the log, and redelivers it', async () => {
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('A test event is on its way.').waitFor();
    const firstRow = page.getByRole('row', { name: /webhook\.test/ }).first();
    await firstRow.getByText('succeeded').waitFor({ timeout: 60_000 });
    await firstRow.getByText('received by the publisher').waitFor();
    await firstRow.getByRole('cell', { name: /^\d+ ms$/ }).waitFor();
    const delivery = await eventually(() => receiver.at('/hook')[0]);
    expect(verifiesServiceSignature(delivery, secret)).toBe(true);
    expect(delivery.headers['x-service-event']).toBe('webhook.test');
    await browser.screenshot(page, 'dashboard-webhooks-delivered');

    await firstRow.getByRole('button', { name: /^Redeliver webhook\.test/ }).click();
    await page.getByText('Redelivery scheduled.').waitFor();
    await page.getByRole('row', { name: /webhook\.test/ }).filter({ hasText: 'succeeded' }).nth(1).waitFor({ timeout: 60_000 });
    const again = await eventually(() => receiver.at('/hook')[1]);
    expect(again.headers['x-service-delivery']).toBe(delivery.headers['x-service-delivery']);
    expect(again.body).toBe(delivery.body);
    expect(verifiesServiceSignature(again, secret)).toBe(true);
    await page.getByRole('cell', { name: '2', exact: true }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-webhooks-redelivered');
  });

  it('edits the events and description, keeping the secret, and deletes the webhook after a confirmation', async () => {
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit webhook' });
    await dialog.getByText('The signing secret stays the same.').waitFor();
    expect(await dialog.getByRole('checkbox', { name: 'subscription.created' }).isChecked()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'invoice.paid' }).check();
    await dialog.getByLabel('Description (optional)').fill('Our CRM and billing');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Our CRM and billing').waitFor();
    await page.getByText('invoice.paid', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(`Nothing more is sent to ${receiver.url}/hook, pending retries included`, { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('No webhooks yet').waitFor();
    await browser.screenshot(page, 'dashboard-webhooks-deleted');
  });
});
