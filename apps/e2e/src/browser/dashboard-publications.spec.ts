import type { TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: publications', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    system = await DashboardSystem.start();
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Publications' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('creates a publication with wildcard domains, refusing bad ones next to their field', async () => {
    await page.getByRole('button', { name: 'New publication' }).click();
    const dialog = page.getByRole('dialog', { name: 'New publication' });
    await dialog.getByRole('button', { name: 'Create publication' }).click();
    await dialog.getByText('Give the publication a name.').waitFor();
    await dialog.getByText('Add at least one domain.').waitFor();
    await dialog.getByLabel('Name').fill('The Evening Post');
    await dialog.getByLabel('Domains').fill('eveningpost.example\nnot a host!');
    await dialog.getByRole('button', { name: 'Create publication' }).click();
    await dialog.getByText('Each domain must be a host name such as example.com or *.example.com.').waitFor();
    expect(await dialog.getByLabel('Domains').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await dialog.getByLabel('Domains').fill('EveningPost.example, *.eveningpost.example');
    await dialog.getByRole('button', { name: 'Create publication' }).click();
    // A new publication becomes the current one, and its getting-started checklist opens.
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.getByText('Getting The Evening Post ready', { exact: false }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Publication' }).locator('option:checked').textContent()).toBe('The Evening Post');
    await page.getByRole('link', { name: 'Publications' }).click();
    const row = page.getByRole('row', { name: /The Evening Post/ });
    await row.getByText('eveningpost.example, *.eveningpost.example').waitFor();
    await row.getByText('Owner').waitFor();
    await page.getByRole('combobox', { name: 'Publication' }).getByRole('option', { name: 'The Evening Post' }).waitFor({ state: 'attached' });
    await browser.screenshot(page, 'dashboard-publication-created');
  });

  it('edits its name, domains and self-registration, and the switcher moves every screen to it', async () => {
    await page.getByRole('button', { name: 'Edit The Evening Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit The Evening Post' });
    await dialog.getByLabel('Name').fill('The Evening Star');
    await dialog.getByLabel('Domains').fill('eveningstar.example\n*.eveningstar.example');
    const selfRegistration = dialog.getByRole('switch', { name: 'Readers may create their own accounts' });
    expect(await selfRegistration.getAttribute('aria-checked')).toBe('true');
    await selfRegistration.click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The Evening Star was saved.').waitFor();
    await page.getByRole('row', { name: /The Evening Star/ }).getByText('eveningstar.example, *.eveningstar.example').waitFor();

    await page.getByRole('combobox', { name: 'Publication' }).selectOption({ label: 'The Evening Star' });
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByText('Who works on The Evening Star.', { exact: false }).waitFor();
    await browser.screenshot(page, 'dashboard-publication-edited');

    const login = await system.api('/admin/session', { body: OWNER });
    const session = /service_session=([^;]*)/.exec(login.headers.get('set-cookie') ?? '')![1];
    const { items } = (await system.api('/admin/publications', { session })).body;
    expect(items).toContainEqual({ id: expect.any(String), name: 'The Evening Star', domains: ['eveningstar.example', '*.eveningstar.example'], selfRegistration: false, verifiedDomains: [], role: 'admin' });
  });

  it('marks unverified domains and shows the owner the token, the TXT record and the file that prove each', async () => {
    await page.getByRole('link', { name: 'Publications' }).click();
    const row = page.getByRole('row', { name: /The Evening Star/ });
    await row.getByText('2 domains not verified').waitFor();
    await page.getByRole('button', { name: 'Verify domains of The Evening Star' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify the domains of The Evening Star' });
    const wildcard = dialog.getByRole('listitem', { name: '*.eveningstar.example' });
    await wildcard.getByText('TXT record _gatehouse.eveningstar.example').waitFor();
    await wildcard.getByText('or the file https://eveningstar.example/.well-known/gatehouse-verification.txt').waitFor();
    expect(await wildcard.locator('[data-copy]').first().textContent()).toMatch(/^gatehouse-verification=[0-9a-f]{32}$/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Verify eveningstar.example' }).waitFor();
    await browser.screenshot(page, 'dashboard-publication-domain-proof');
  });
});
