import type { TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { sessionFrom } from '../support/http';
import { addStaff } from '../support/staff';
import { DashboardSystem, OWNER, seriousAccessibilityViolations, signIn, staffBrowser, tabTo } from '../support/dashboard';

jest.setTimeout(120_000);

const VIEWER = { email: 'viewer@dashboard.example', name: 'Vera Viewer', password: 'viewer-password-1' };
const READ_ONLY = 'Viewers have read-only access.';

describe('dashboard: team, invitations and a viewer', () => {
  let system: DashboardSystem;
  let ownerBrowser: TestBrowser;
  let viewerBrowser: TestBrowser;
  let owner: Page;
  let viewer: Page;
  let link = '';

  beforeAll(async () => {
    system = await DashboardSystem.start();
    [ownerBrowser, viewerBrowser] = await Promise.all([staffBrowser(), staffBrowser()]);
    owner = await ownerBrowser.newPage();
    viewer = await viewerBrowser.newPage();
    await signIn(owner, system, OWNER);
  }, 120_000);

  afterAll(async () => {
    await ownerBrowser?.close();
    await viewerBrowser?.close();
    await system?.close();
  });

  it('lets the owner invite a viewer with the keyboard alone, and shows the single-use link once', async () => {
    await owner.getByRole('link', { name: 'Team' }).click();
    await owner.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await owner.getByRole('table').getByText(OWNER.email, { exact: true }).waitFor();
    await tabTo(owner, /^Invite someone$/);
    await owner.keyboard.press('Enter');
    await owner.getByRole('dialog', { name: 'Invite someone' }).waitFor();
    await owner.keyboard.type(VIEWER.email);
    await owner.keyboard.press('Tab');
    await owner.keyboard.press('v');
    expect(await owner.getByLabel('Role', { exact: true }).inputValue()).toBe('viewer');
    expect(await seriousAccessibilityViolations(owner)).toEqual([]);
    await tabTo(owner, /^Create invitation$/);
    await owner.keyboard.press('Enter');

    const shown = owner.getByRole('dialog', { name: `Invitation for ${VIEWER.email}` });
    await shown.getByText('It works once, for 7 days, and is shown only now.').waitFor();
    link = (await shown.locator('[data-secret="Invitation link"]').textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^${system.gateway.url}/dashboard/invitation#token=[A-Za-z0-9_-]{43}$`));
    await ownerBrowser.screenshot(owner, 'dashboard-team-invitation-link');
    await owner.keyboard.press('Escape');
    await owner.getByText(`${VIEWER.email}`, { exact: false }).first().waitFor();
    await owner.getByRole('button', { name: `Revoke the invitation of ${VIEWER.email}` }).waitFor();
  });

  it('lets the invitee accept by setting a password, once, and signs them in as a viewer', async () => {
    await viewer.goto(link);
    await viewer.getByText(`as Viewer, with the email ${VIEWER.email}`, { exact: false }).waitFor();
    expect(await seriousAccessibilityViolations(viewer)).toEqual([]);
    await viewer.getByLabel('Your name').fill(VIEWER.name);
    await viewer.getByLabel('New password').fill(VIEWER.password);
    await viewer.getByLabel('Repeat the password').fill('something else');
    await viewer.getByRole('button', { name: 'Accept and sign in' }).click();
    await viewer.getByText('The passwords differ.').waitFor();
    await viewer.getByLabel('Repeat the password').fill(VIEWER.password);
    await viewer.getByRole('button', { name: 'Accept and sign in' }).click();
    await viewer.getByRole('heading', { name: 'Publications', level: 1 }).waitFor();
    await viewer.getByText(`${VIEWER.email} · Viewer`).waitFor();
    await viewer.getByRole('note').filter({ hasText: 'You are a viewer of Dashboard Daily' }).waitFor();

    const again = await viewerBrowser.newPage();
    await again.goto(link);
    await again.getByRole('alert').filter({ hasText: 'This invitation link is unknown, already used, revoked or expired.' }).waitFor();
    await again.close();
  });

  it('refuses every write of the viewer with a clear message', async () => {
    // Publication settings
    await viewer.getByRole('button', { name: 'Edit Dashboard Daily' }).click();
    await viewer.getByLabel('Name').fill('Hijacked Daily');
    await viewer.getByRole('button', { name: 'Save' }).click();
    await viewer.getByRole('dialog').getByRole('alert').filter({ hasText: 'Only an admin of the publication may change it.' }).waitFor();
    await viewer.keyboard.press('Escape');

    // Team
    await viewer.getByRole('link', { name: 'Team' }).click();
    await viewer.getByRole('button', { name: 'Invite someone' }).first().click();
    await viewer.getByLabel('Email').fill('friend@dashboard.example');
    await viewer.getByRole('button', { name: 'Create invitation' }).click();
    await viewer.getByRole('dialog').getByRole('alert').filter({ hasText: READ_ONLY }).waitFor();
    await viewer.keyboard.press('Escape');

    // API keys
    await viewer.getByRole('link', { name: 'API keys' }).click();
    await viewer.getByRole('button', { name: 'Create key pair' }).first().click();
    await viewer.getByLabel('Name').fill('viewer-pair');
    await viewer.getByRole('button', { name: 'Create key pair' }).last().click();
    await viewer.getByRole('dialog').getByRole('alert').filter({ hasText: READ_ONLY }).waitFor();
    await viewer.keyboard.press('Escape');

    // Branding
    await viewer.getByRole('link', { name: 'Branding' }).click();
    await viewer.getByLabel('Paywall heading').fill('Viewer was here');
    await viewer.getByRole('button', { name: 'Save branding' }).click();
    await viewer.getByRole('alert').filter({ hasText: READ_ONLY }).waitFor();

    // Webhooks
    await viewer.getByRole('link', { name: 'Webhooks' }).click();
    await viewer.getByRole('button', { name: 'Add webhook' }).first().click();
    await viewer.getByLabel('Endpoint URL').fill('https://hooks.dashboard.example/in');
    await viewer.getByLabel('subscription.created').check();
    await viewer.getByRole('button', { name: 'Add webhook' }).last().click();
    await viewer.getByRole('dialog').getByRole('alert').filter({ hasText: READ_ONLY }).waitFor();
    await viewerBrowser.screenshot(viewer, 'dashboard-team-viewer-refused');
    await viewer.keyboard.press('Escape');

    // Nothing changed.
    const session = await system.api('/admin/session', { body: OWNER });
    const cookie = /service_session=([^;]*)/.exec(session.headers.get('set-cookie') ?? '')![1];
    expect((await system.api('/admin/publications', { session: cookie })).body.items[0].name).toBe('Dashboard Daily');
    expect((await system.api('/admin/api-keys', { session: cookie })).body).toEqual([]);
    expect((await system.api('/branding/admin', { session: cookie })).body.paywallHeading).toBeNull();
    expect((await system.api('/admin/webhooks', { session: cookie })).body.webhooks).toEqual([]);
  });

  it('shows the owner the new member and who changed what, and never lets the last owner go', async () => {
    await owner.reload();
    await owner.getByRole('table').getByText(VIEWER.email, { exact: true }).waitFor();
    await owner.getByText(`${VIEWER.email} joined (Viewer)`).waitFor();
    await owner.getByText(`${OWNER.email} invited ${VIEWER.email} (Viewer)`).waitFor();

    await owner.getByLabel(`Role of ${OWNER.email}`).selectOption('viewer');
    await owner.getByRole('alert').filter({ hasText: 'A publication keeps at least one owner' }).waitFor();
    await owner.reload();
    expect(await owner.getByLabel(`Role of ${OWNER.email}`).inputValue()).toBe('admin');
    await owner.getByText(`${OWNER.email} · Owner`).waitFor();
    expect(await seriousAccessibilityViolations(owner)).toEqual([]);
    await ownerBrowser.screenshot(owner, 'dashboard-team-members');
  });

  it('lets someone who already has an account join by signing in first, with no password on the invitation page', async () => {
    const member = await addStaff(system.db.url, 'admin');
    const ownerSession = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    const invited = await system.api('/admin/team/invitations', { session: ownerSession, body: { email: member.email, role: 'viewer' } });
    expect(invited.status).toBe(201);
    const memberBrowser = await staffBrowser();
    try {
      const page = await memberBrowser.newPage();
      await page.goto(`${system.url}/invitation#token=${invited.body.token}`);
      await page.getByText(`as Viewer, with the email ${member.email}`, { exact: false }).waitFor();
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Email').fill(member.email);
      await page.getByLabel('Password').fill(member.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Back on the invitation, signed in as its email: one button, no password asked.
      await page.getByText('You are signed in with this email', { exact: false }).waitFor();
      expect(await page.getByLabel('New password').count()).toBe(0);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await memberBrowser.screenshot(page, 'dashboard-team-join-signed-in');
      await page.getByRole('button', { name: 'Join Dashboard Daily' }).click();
      await page.getByRole('heading', { name: 'Publications', level: 1 }).waitFor();
      await page.getByText(`${member.email} · Viewer`).waitFor();
    } finally {
      await memberBrowser.close();
    }
  });
});
