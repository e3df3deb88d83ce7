import { eventually, type TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser, tabTo } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

const AREAS = ['Publications', 'Team', 'API keys', 'Branding', 'Webhooks', 'Paywalls', 'Segments', 'Experiments', 'Catalog', 'Customers', 'Stats', 'Email', 'Audit log'];

describe('dashboard: sign-in, shell, session expiry, keyboard and accessibility', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    system = await DashboardSystem.start();
    browser = await staffBrowser();
    page = await browser.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('is served at /dashboard with the SPA fallback, and sends a first visitor to sign-in saying just that', async () => {
    const deepLink = await fetch(`${system.url}/team`);
    expect(deepLink.status).toBe(200);
    expect(deepLink.headers.get('content-type')).toContain('text/html');
    expect(await deepLink.text()).toContain('<div id="root">');

    await page.goto(`${system.url}/team`);
    await page.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    // Nobody's session expired: this visitor never had one.
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByText('Your session has expired', { exact: false }).count()).toBe(0);
    expect(await page.title()).toBe('Sign in · Gatehouse');
  });

  it('refuses a wrong password with the API’s message, then signs in with the right one, using only the keyboard', async () => {
    await page.goto(`${system.url}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor();
    await tabTo(page, /^Email$/);
    await page.keyboard.type(OWNER.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not-the-password');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'The email or password is wrong.' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-sign-in-wrong-password');

    await page.getByLabel('Password').focus();
    await page.keyboard.type(OWNER.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Publication' }).inputValue()).not.toBe('');
    await page.getByText(`${OWNER.email} · Owner`).waitFor();
  });

  it('reaches every area of the navigation with Tab and Enter alone, and axe finds no serious violation on any page', async () => {
    for (const area of AREAS) {
      await page.goto(`${system.url}/publications`);
      await page.getByRole('heading', { name: 'Publications', level: 1 }).waitFor();
      await tabTo(page, new RegExp(`^${area}$`));
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: area, level: 1 }).waitFor();
      // Every loading state settles (to content, or to its error where this system lacks a service).
      await eventually(async () => ((await page.getByRole('status').filter({ hasText: 'Loading' }).count()) === 0 ? true : undefined), 30_000);
      expect(new URL(page.url()).pathname).toBe(`/dashboard/${area.toLowerCase().replace(' ', '-')}`);
      const violations = await seriousAccessibilityViolations(page);
      expect({ area, violations }).toEqual({ area, violations: [] });
      await browser.screenshot(page, `dashboard-area-${area.toLowerCase().replace(' ', '-')}`);
    }
  });

  it('sends the user back to sign-in with a message when the session expires, and returns them to where they were', async () => {
    await page.goto(`${system.url}/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await system.adminSql(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE staff_id = (SELECT id FROM staff WHERE email = $1)`, [OWNER.email]);

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByText('Your session has expired. Sign in again to continue where you were.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await browser.screenshot(page, 'dashboard-session-expired');

    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/api-keys');
  });

  it('signs out: the session ends at the server and the dashboard asks to sign in again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor();
    const cookies = await browser.context.cookies(system.gateway.url);
    expect(cookies.find((c) => c.name === 'service_session')).toBeUndefined();
    await page.goto(`${system.url}/publications`);
    await page.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor();
    await browser.screenshot(page, 'dashboard-signed-out');
  });

  it('signs in again through the helper the other dashboard tests use', async () => {
    await signIn(page, system, OWNER);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  });
});
