import type { TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser, tabTo } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: API keys', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let publishable = '';
  const check = (key: string) => system.api('/access/check?url=https://daily.example/premium/1', { key });

  beforeAll(async () => {
    system = await DashboardSystem.start();
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'API keys' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('creates a pair with the keyboard and shows the secret key once; the public key stays, in a ready-to-paste snippet', async () => {
    await page.getByText('No API keys yet').waitFor();
    await tabTo(page, /^Create your first key pair$/);
    await page.keyboard.press('Enter');
    await page.keyboard.type('production-site');
    await page.keyboard.press('Enter');

    const shown = page.getByRole('dialog', { name: 'Key pair production-site' });
    publishable = (await shown.locator('[data-secret="Publishable key"]').textContent()) ?? '';
    const secret = (await shown.locator('[data-secret="Secret key"]').textContent()) ?? '';
    expect(publishable).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(secret).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'Copy Publishable key' }).waitFor();
    await shown.getByRole('button', { name: 'Copy Secret key' }).waitFor();
    const download = shown.getByRole('link', { name: 'Download service-production-site.env' });
    expect(await download.getAttribute('download')).toBe('service-production-site.env');
    expect(decodeURIComponent((await download.getAttribute('href')) ?? '')).toBe(
      `data:text/plain;charset=utf-8,SERVICE_PUBLISHABLE_KEY=${publishable}\nSERVICE_SECRET_KEY=${secret}\n`,
    );
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-api-keys-created');
    await shown.getByRole('button', { name: 'I have saved them' }).click();

    // The secret key never again: the list shows its prefix only. The publishable key is public: it stays, with the snippet.
    await page.reload();
    await page.getByRole('heading', { name: 'production-site' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.getByText(`${secret.slice(0, 12)}…`).waitFor();
    expect(await page.locator('[data-copy="Publishable key of production-site"]').textContent()).toBe(publishable);
    const snippet = (await page.locator('[data-copy="Snippet for your pages (production-site)"]').textContent()) ?? '';
    expect(snippet).toContain(`<script src="${system.gateway.url}/sdk/v1/gatehouse.js" data-publishable-key="${publishable}" async></script>`);
    expect(snippet).toContain(`<script src="${system.gateway.url}/sdk/v1/elements.js" async></script>`);
    expect(snippet).toContain('<gatehouse-content-lock>');
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.gateway.url });
    await page.getByRole('button', { name: 'Copy Snippet for your pages (production-site)' }).click();
    await page.getByRole('button', { name: 'Copy Snippet for your pages (production-site)' }).getByText('Copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(snippet);
    await browser.screenshot(page, 'dashboard-api-keys-snippet');

    const granted = await check(publishable);
    expect(granted.status).toBe(200);
    expect(granted.body.granted).toBe(true);
  });

  it('revokes the publishable key after a confirmation saying what stops working, and an access check with it then fails', async () => {
    const publishableRow = page.getByRole('row', { name: /\(publishable\)/ });
    const prefix = ((await publishableRow.locator('.font-mono').textContent()) ?? '').replace('…', '');
    await page.getByRole('button', { name: 'Revoke publishable key of production-site' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Browser code on your site stops passing access checks, sending events and signing readers in with it.', { exact: false }).waitFor();
    await confirm.getByText('The other key of the pair keeps working.', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Revoke publishable key' }).click();
    await publishableRow.getByText(/^Revoked/).waitFor();
    await page.getByRole('row', { name: /\(secret\)/ }).getByText('Active').waitFor();
    await browser.screenshot(page, 'dashboard-api-keys-revoked');

    expect(prefix).toBe(publishable.slice(0, 12));
    const refused = await check(publishable);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('api_key_invalid');
  });
});
