import type { TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { FakeProcessorProcess, SECRET_KEY } from '../support/billing';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

/** The Retention screen (issue #27 items 2 and 5): cancellation reasons with their save offers, and win-back. */
describe('dashboard: retention', () => {
  let fake: FakeProcessorProcess;
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';

  beforeAll(async () => {
    fake = await FakeProcessorProcess.spawn();
    system = await DashboardSystem.start({ billing: true, processorUrl: fake.url });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    expect((await system.api('/admin/processor', { method: 'PUT', session, body: { secretKey: SECRET_KEY } })).status).toBe(200);
    const offer = await system.api('/admin/offers', { session, body: { name: 'Stay', code: 'STAY25', kind: 'percent', percentOff: 25, duration: 'repeating', durationInMonths: 2 } });
    expect(offer.status).toBe(201);
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Retention' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
    await fake?.close();
  });

  it('sets a label, a save offer and the order of the reasons, kept across a reload; the label is text', async () => {
    const form = page.getByRole('form', { name: 'Cancellation reasons' });
    await form.getByLabel('Save offer for too_expensive').waitFor();
    await form.getByLabel('Label for too_expensive').fill('<b>Too dear</b>');
    await form.getByLabel('Save offer for too_expensive').selectOption({ label: 'STAY25: 25% off for 2 months' });
    await form.getByLabel('Save offer for unused').selectOption({ label: 'Pause 2 months' });
    await form.getByRole('button', { name: 'Move unused up' }).click();
    await form.getByLabel('Show “I found another source”').uncheck();
    await form.getByRole('button', { name: 'Save reasons' }).click();
    await page.getByText('Saved: readers who cancel from now on see these reasons and offers.').waitFor();
    const { reasons } = (await system.api('/admin/cancellation-reasons', { session })).body;
    expect(reasons.slice(0, 3)).toEqual([
      { reason: 'unused', label: null, enabled: true, save: { kind: 'pause', months: 2 } },
      { reason: 'too_expensive', label: '<b>Too dear</b>', enabled: true, save: { kind: 'discount', offerId: expect.any(String) } },
      { reason: 'switched_service', label: null, enabled: false, save: null },
    ]);
    await page.reload();
    await expect(form.getByLabel('Label for too_expensive').inputValue()).resolves.toBe('<b>Too dear</b>');
    await expect(form.getByLabel('Save offer for unused').inputValue()).resolves.toBe('pause:2');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-retention');
  });

  it('turns win-back on with an offer and a number of days; without an offer it says what is missing', async () => {
    const form = page.getByRole('form', { name: 'Win-back' });
    await form.getByLabel('Send win-back email').check();
    await form.getByRole('button', { name: 'Save win-back' }).click();
    await form.getByText('is needed to turn win-back on: the offer the email carries').waitFor();
    expect((await system.api('/admin/win-back', { session })).body).toEqual({ enabled: false, days: 30, offerId: null });
    await form.getByLabel('Offer in the email').selectOption({ label: 'STAY25: 25% off for 2 months' });
    await form.getByLabel('Days after the subscription ends').fill('14');
    await form.getByRole('button', { name: 'Save win-back' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect((await system.api('/admin/win-back', { session })).body).toEqual({ enabled: true, days: 14, offerId: expect.any(String) });
  });
});
