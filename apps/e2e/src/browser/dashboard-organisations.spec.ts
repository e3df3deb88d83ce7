import type { TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { Client } from 'pg';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: organisations', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';
  let managerId = '';

  beforeAll(async () => {
    system = await DashboardSystem.start({ billing: true, customers: true });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    expect((await system.api('/admin/products', { session, body: { name: 'Campus access' } })).status).toBe(201);
    managerId = (await system.api('/customers', { session, body: { email: 'librarian@acme.example', name: 'Librarian' } })).body.id;
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Organisations' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it("creates an organisation from the form, the server's refusal shown beside its field, and invites a member", async () => {
    await page.getByText('No organisations yet').waitFor();
    await page.getByRole('button', { name: 'New organisation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New organisation' });
    await dialog.getByLabel('Name').fill('Acme University');
    await dialog.getByLabel('Seats (empty: unlimited)').fill('2');
    await dialog.getByLabel('IP ranges').fill('10.0.0.0/8');
    await dialog.getByLabel('Managers').fill('librarian@acme.example');
    await dialog.getByRole('button', { name: 'Create organisation' }).click();
    await dialog.getByText('10.0.0.0/8 is in the private or reserved range 10.0.0.0/8; allowReservedRanges admits it').waitFor();
    expect((await system.api('/admin/organisations', { session })).body.items).toEqual([]);

    await dialog.getByLabel('IP ranges').fill('81.2.69.0/24\n2a02:1234::/32');
    await dialog.getByRole('button', { name: 'Create organisation' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: 'Acme University' });
    await row.getByText('0 of 2').waitFor();
    await row.getByText('81.2.69.0/24, 2a02:1234::/32').waitFor();
    const [stored] = (await system.api('/admin/organisations', { session })).body.items;
    expect(stored).toMatchObject({ name: 'Acme University', seats: 2, ipRanges: ['81.2.69.0/24', '2a02:1234::/32'], managerIds: [managerId] });

    await row.getByRole('button', { name: 'Members of Acme University' }).click();
    await row.getByText('No members yet.').waitFor();
    await row.getByLabel('Invite by email').fill('student@acme.example');
    await row.getByRole('button', { name: 'Invite' }).click();
    await row.getByText('student@acme.example').waitFor();
    expect((await system.api(`/admin/organisations/${stored.id}/seats`, { session })).body.invitations).toEqual([expect.objectContaining({ email: 'student@acme.example' })]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-organisations');
  });

  it("shows an organisation's readers, reads and seats of the last 30 days, and of a range chosen", async () => {
    const { publishableKey } = (await system.api('/admin/api-keys', { session, body: { name: 'site' } })).body;
    expect((await system.api('/admin/paywalls', { session, body: { name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } } })).status).toBe(201);
    const [product] = (await system.api('/admin/products', { session })).body.items;
    // The test's own address (loopback) is on this intranet's network.
    const intranet = { name: 'Newsroom intranet', productId: product.id, seats: 5, ipRanges: ['127.0.0.0/8', '::1/128'], allowReservedRanges: true };
    const created = await system.api('/admin/organisations', { session, body: intranet });
    expect(created.status).toBe(201);
    const read = async (userId?: string) => {
      const query = new URLSearchParams({ url: 'https://daily.example/premium/story', ...(userId ? { userId } : {}) });
      expect((await system.api(`/access/check?${query}`, { key: publishableKey })).body).toMatchObject({ granted: true, reason: 'organisation', organisation: { name: 'Newsroom intranet' } });
    };
    await read('visitor-1');
    await read('visitor-1');
    await read();

    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'Newsroom intranet' });
    await row.getByRole('button', { name: 'Stats of Newsroom intranet' }).click();
    const stats = row.getByRole('definition');
    await stats.filter({ hasText: '1 reader' }).waitFor();
    await stats.filter({ hasText: '3 reads (0 by seat, 3 on its networks)' }).waitFor();
    await stats.filter({ hasText: '0 of 5' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Five reads on its networks two months ago: outside the last 30 days, inside the last 90.
    const sql = new Client({ connectionString: system.databaseUrl });
    await sql.connect();
    try {
      const { rowCount } = await sql.query(
        `INSERT INTO access.organisation_reads (publication_id, organisation_id, hour, network_reads)
         SELECT publication_id, organisation_id, date_trunc('hour', now() - interval '60 days'), 5 FROM access.organisation_reads WHERE organisation_id = $1 LIMIT 1`,
        [created.body.id],
      );
      expect(rowCount).toBe(1);
    } finally {
      await sql.end();
    }
    const range = row.getByLabel('Range of the stats of Newsroom intranet');
    await range.selectOption({ label: 'Last 90 days' });
    await row.locator('dl[aria-label="Stats of Newsroom intranet, last 90 days"]').waitFor();
    await stats.filter({ hasText: '8 reads (0 by seat, 8 on its networks)' }).waitFor();
    await range.selectOption({ label: 'Last 7 days' });
    await stats.filter({ hasText: '3 reads (0 by seat, 3 on its networks)' }).waitFor();
    await browser.screenshot(page, 'dashboard-organisation-stats');
  });
});
