import type { TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { sessionFrom } from '../support/http';
import { DashboardSystem, openAndCloseEditorLink, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: segments', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';

  beforeAll(async () => {
    system = await DashboardSystem.start();
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Segments' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('builds a segment from conditions of several attributes and operators, refusing bad values next to their row', async () => {
    await page.getByRole('button', { name: 'Create your first segment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New segment' });
    await dialog.getByLabel('Name').fill('Mobile readers from the newsletter');
    await dialog.getByLabel('any condition').check();
    await dialog.getByLabel('Condition 1 operator').selectOption('in');
    await dialog.getByLabel('Condition 1 value').fill('mobile, tablet');
    await dialog.getByRole('button', { name: 'Add condition' }).click();
    await dialog.getByLabel('Condition 2 attribute').selectOption('utm_source');
    await dialog.getByLabel('Condition 2 operator').selectOption('contains');
    await dialog.getByLabel('Condition 2 value').fill('newsletter');
    await dialog.getByRole('button', { name: 'Add condition' }).click();
    await dialog.getByLabel('Condition 3 attribute').selectOption('visit_count');
    await dialog.getByLabel('Condition 3 operator').selectOption('gt');
    await dialog.getByLabel('Condition 3 value').fill('3');
    await dialog.getByRole('button', { name: 'Add condition' }).click();
    await dialog.getByLabel('Condition 4 attribute').selectOption('country');
    await dialog.getByLabel('Condition 4 value').fill('Germany');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create segment' }).click();
    await dialog.getByText('must be an ISO 3166 alpha-2 country code').waitFor();
    await browser.screenshot(page, 'dashboard-segments-field-error');

    await dialog.getByLabel('Condition 4 value').fill('DE');
    await dialog.getByRole('button', { name: 'Create segment' }).click();
    const card = page.getByRole('region', { name: 'Mobile readers from the newsletter' });
    await card.getByText('Visitors matching any of:').waitFor();
    for (const line of ['Device is one of mobile, tablet', 'UTM source contains newsletter', 'Visits this period is more than 3', 'Country (ISO code) is DE']) {
      await card.getByText(line, { exact: true }).waitFor();
    }
    await card.getByText('no paywall').waitFor();

    const [stored] = (await system.api('/admin/segments', { session })).body.items;
    expect(stored).toMatchObject({
      match: 'any',
      conditions: [
        { attribute: 'device', operator: 'in', value: ['mobile', 'tablet'] },
        { attribute: 'utm_source', operator: 'contains', value: 'newsletter' },
        { attribute: 'visit_count', operator: 'gt', value: 3 },
        { attribute: 'country', operator: 'eq', value: 'DE' },
      ],
    });
  });

  it('lists the paywalls that use a segment, edits it, and explains why it cannot be deleted while used', async () => {
    const [segment] = (await system.api('/admin/segments', { session })).body.items;
    const paywall = await system.api('/admin/paywalls', { session, body: { name: 'Soft for newsletter readers', type: 'soft', match: { include: ['/**'] }, segmentId: segment.id } });
    expect(paywall.status).toBe(201);
    await page.reload();
    const card = page.getByRole('region', { name: 'Mobile readers from the newsletter' });
    await card.getByText('Soft for newsletter readers').waitFor();

    await card.getByRole('button', { name: 'Edit Mobile readers from the newsletter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Mobile readers from the newsletter' });
    await dialog.getByLabel('all conditions').check();
    await dialog.getByRole('button', { name: 'Remove condition 4' }).click();
    await dialog.getByLabel('Condition 1 attribute').selectOption('authenticated');
    await dialog.getByLabel('Condition 1 value').selectOption('false');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await card.getByText('Visitors matching all of:').waitFor();
    await card.getByText('Signed in is no', { exact: true }).waitFor();
    expect(await card.getByText('Country (ISO code) is DE').count()).toBe(0);

    await card.getByRole('button', { name: 'Delete Mobile readers from the newsletter' }).click();
    await page.getByRole('alertdialog').getByText('Paywalls use it (Soft for newsletter readers)', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Delete segment' }).click();
    await page.getByRole('alert').filter({ hasText: 'Paywalls use this segment: Soft for newsletter readers.' }).waitFor();
    await card.waitFor();
    await browser.screenshot(page, 'dashboard-segments');
  });

  it('opens the editor from a link to it, loading the segment by id', async () => {
    const [first] = (await system.api('/admin/segments', { session })).body.items;
    await openAndCloseEditorLink(page, system, 'segments', first);
  });
});
