import type { TestBrowser } from '@gatehouse/testing';
import { eventually } from '@gatehouse/testing';
import { Client } from 'pg';
import type { Page, Response } from 'playwright-core';
import { DashboardSystem, seriousAccessibilityViolations, settled, signIn, staffBrowser } from '../support/dashboard';
import { call } from '../support/http';
import { addStaff, adminSession, ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

/** A write the dashboard made and the gateway accepted, as the browser saw it. */
interface Write {
  method: string;
  path: string;
  /** The resource written: the answer's id, else the path's last part (read from the answer when it comes). */
  resource: Promise<string>;
}

/** Every successful write the page sends to the API from now on (signing in and out change only the session: not audited). */
function watchWrites(page: Page): Write[] {
  const writes: Write[] = [];
  page.on('response', (response: Response) => {
    const request = response.request();
    const { pathname } = new URL(request.url());
    if (request.method() === 'GET' || !pathname.startsWith('/api/v1/') || pathname.startsWith('/api/v1/admin/session') || !response.ok()) return;
    // A 204 has no body to read.
    const resource = response.text().then(
      (text) => {
        const id = text ? (JSON.parse(text) as { id?: unknown }).id : undefined;
        return typeof id === 'string' ? id : decodeURIComponent(pathname.split('/').at(-1) ?? '');
      },
      () => decodeURIComponent(pathname.split('/').at(-1) ?? ''),
    );
    writes.push({ method: request.method(), path: pathname, resource });
  });
  return writes;
}

describe('dashboard: audit log', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let writes: Write[];

  beforeAll(async () => {
    system = await DashboardSystem.start();
    browser = await staffBrowser();
    page = await browser.newPage();
    writes = watchWrites(page);
    await signIn(page, system, OWNER);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('shows every write made on the dashboard, newest first, with who made it and on what', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create your first key pair' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('audited-site');
    await page.getByRole('dialog').getByRole('button', { name: 'Create key pair' }).click();
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Revoke publishable key of audited-site' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke publishable key' }).click();
    await page.getByRole('row', { name: /\(publishable\)/ }).getByText(/^Revoked/).waitFor();

    await page.getByRole('link', { name: 'Segments' }).click();
    await page.getByRole('button', { name: 'Create your first segment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New segment' });
    await dialog.getByLabel('Name').fill('Audited readers');
    await dialog.getByRole('button', { name: 'Create segment' }).click();
    await page.getByRole('region', { name: 'Audited readers' }).waitFor();
    await eventually(async () => (writes.length === 3 ? true : undefined));

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await settled(page);
    const rows = page.getByRole('table', { name: 'Audit log entries' }).locator('tbody tr');
    expect(await rows.count()).toBe(writes.length);
    for (const [index, write] of [...writes].reverse().entries()) {
      const row = rows.nth(index);
      expect(await row.textContent()).toContain(`${write.method} /api/v1/`);
      expect(await row.textContent()).toContain(OWNER.email);
      expect(await row.textContent()).toContain('127.0.0.1');
      if (write.method !== 'POST' || write.path !== '/api/v1/admin/api-keys') expect(await row.textContent()).toContain(await write.resource);
    }
    expect(await page.getByRole('table', { name: 'Audit log entries' }).textContent()).not.toMatch(/sk_[A-Za-z0-9_-]{20}/);
    await rows.first().getByText('Show').click();
    await rows.first().getByText('"name": "Audited readers"').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-audit-log');
  });

  it('filters, and exports what the filter shows as CSV', async () => {
    await page.getByLabel('Action').fill('segments');
    await page.getByRole('button', { name: 'Filter' }).click();
    const rows = page.getByRole('table', { name: 'Audit log entries' }).locator('tbody tr');
    await eventually(async () => ((await rows.count()) === 1 ? true : undefined));
    const href = (await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')) ?? '';
    expect(href).toBe('/api/v1/admin/audit-log/export?action=segments');
    const csv = await page.request.get(`${system.gateway.url}${href}`);
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',SegmentsController_create,POST,/api/v1/admin/segments,');

    await page.getByLabel('Who (email)').fill('nobody@');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No entries match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await eventually(async () => ((await rows.count()) === 3 ? true : undefined));
  });

  it('shows staff-typed text as text, and a viewer reads the same log', async () => {
    const { publicationId } = await adminSession(system.gateway.url);
    const hostile = await addStaff(system.databaseUrl, 'admin', publicationId);
    const sql = new Client({ connectionString: system.databaseUrl });
    await sql.connect();
    await sql.query(`UPDATE admin.staff SET name = '<img src=x onerror="document.title=1">Mallory' WHERE email = $1`, [hostile.email]);
    await sql.end();
    const { session } = await adminSession(system.gateway.url, hostile);
    const segment = await call(system.gateway.url, '/api/v1/admin/segments', { session, body: { name: '<b>bold</b>', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] } });
    expect(segment.status).toBe(201);

    const viewer = await addStaff(system.databaseUrl, 'viewer', publicationId);
    const viewerBrowser = await staffBrowser();
    try {
      const viewerPage = await viewerBrowser.newPage();
      await signIn(viewerPage, system, viewer);
      await viewerPage.getByRole('link', { name: 'Audit log' }).click();
      const table = viewerPage.getByRole('table', { name: 'Audit log entries' });
      await table.getByText('<img src=x onerror="document.title=1">Mallory').waitFor();
      expect(await table.locator('img').count()).toBe(0);
      expect(await viewerPage.title()).not.toBe('1');
      expect(await table.locator('tbody tr').count()).toBe(4);
      await viewerBrowser.screenshot(viewerPage, 'dashboard-audit-log-viewer');
    } finally {
      await viewerBrowser.close();
    }
  });
});
