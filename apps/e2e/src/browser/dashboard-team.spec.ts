import { eventually, type TestBrowser } from '@gatehouse/testing';
import type { Locator, Page } from 'playwright-core';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser, tabTo } from '../support/dashboard';
import { ADMIN as OWNER, addStaff } from '../support/staff';

jest.setTimeout(120_000);

const VIEWER = { email: 'viewer@dashboard.example', name: 'Vera Viewer', password: 'viewer-password-1' };
const AS_VIEWER = 'You are a viewer: you can look at everything but change nothing. An owner can make you an editor.';
const VIEWER_NOT_OWNER = 'You are a viewer: only owners change the team and the publication settings.';
const EDITOR_NOT_OWNER = 'Only owners change the team and the publication settings.';
const LAST_OWNER = 'A publication keeps at least one owner: make someone else an owner first.';

/** A refused control: focusable, marked disabled, its reason in its description and in the tooltip its hover and its focus show; pressing it does nothing. */
async function expectRefused(page: Page, control: Locator, reason: string): Promise<void> {
  expect(await control.getAttribute('aria-disabled')).toBe('true');
  const described = await control.getAttribute('aria-describedby');
  expect(await page.locator(`[id="${described}"]`).textContent()).toBe(reason);
  await control.hover();
  await page.getByRole('tooltip').filter({ hasText: reason }).waitFor();
  await page.mouse.move(0, 0);
  await page.getByRole('tooltip').waitFor({ state: 'detached' });
  await control.focus();
  await page.getByRole('tooltip').filter({ hasText: reason }).waitFor();
  await control.press('Enter');
  await control.click({ force: true });
  expect(await page.getByRole('dialog').count()).toBe(0);
  expect(await page.getByRole('alertdialog').count()).toBe(0);
  await control.blur();
}

/** A control the role may use: not marked disabled, no reason attached, no tooltip on focus. */
async function expectEnabled(page: Page, control: Locator): Promise<void> {
  expect(await control.getAttribute('aria-disabled')).toBeNull();
  expect(await control.isDisabled()).toBe(false);
  expect(await control.getAttribute('aria-describedby')).toBeNull();
  await control.focus();
  expect(await page.getByRole('tooltip').count()).toBe(0);
  await control.blur();
}

describe('dashboard: team, invitations, and what each role sees', () => {
  let system: DashboardSystem;
  let ownerBrowser: TestBrowser;
  let otherBrowser: TestBrowser;
  let owner: Page;
  let other: Page;
  let link = '';

  beforeAll(async () => {
    // Identity queues the invitations' email (in its local mailbox: no SMTP_URL, as on `npm start`); billing keeps the catalog.
    system = await DashboardSystem.start({ customers: true, billing: true });
    [ownerBrowser, otherBrowser] = await Promise.all([staffBrowser(), staffBrowser()]);
    owner = await ownerBrowser.newPage();
    other = await otherBrowser.newPage();
    await signIn(owner, system, OWNER);
  }, 120_000);

  afterAll(async () => {
    await ownerBrowser?.close();
    await otherBrowser?.close();
    await system?.close();
  });

  it('lets the owner invite a viewer with the keyboard alone: the invitation is emailed and its link shown once, to copy', async () => {
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
    await tabTo(owner, /^Send invitation$/);
    await owner.keyboard.press('Enter');

    const shown = owner.getByRole('dialog', { name: `Invitation for ${VIEWER.email}` });
    await shown.getByText(`We emailed ${VIEWER.email} a link to join.`, { exact: false }).waitFor();
    // Without an SMTP server the copy button is how the link reaches the invitee: the next test opens what it copied.
    await ownerBrowser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.gateway.url });
    await shown.getByRole('button', { name: 'Copy Invitation link' }).click();
    await shown.getByRole('button', { name: 'Copy Invitation link' }).filter({ hasText: 'Copied' }).waitFor();
    link = await owner.evaluate('navigator.clipboard.readText()');
    expect(link).toBe(await shown.locator('[data-secret="Invitation link"]').textContent());
    expect(link).toMatch(new RegExp(`^${system.gateway.url}/dashboard/invitation#token=[A-Za-z0-9_-]{43}$`));
    await ownerBrowser.screenshot(owner, 'dashboard-team-invitation-link');
    await owner.keyboard.press('Escape');
    await owner.getByRole('button', { name: `Revoke the invitation of ${VIEWER.email}` }).waitFor();
    // The email waits in identity's queue (the local mailbox here), in the publication's name.
    const session = await system.sessionOf();
    const mailbox = (await system.api('/admin/mailbox', { session })).body.items;
    expect(mailbox).toContainEqual(expect.objectContaining({ kind: 'staff_invitation', to: VIEWER.email }));
    // The local mailbox says the invitation went out, never its link: no credential is stored.
    const kept = await eventually(async () => {
      const sent = (await system.api('/admin/mailbox', { session })).body.items.find((m: { kind: string; to: string; status: string }) => m.kind === 'staff_invitation' && m.to === VIEWER.email && m.status === 'sent');
      return sent && (await system.api(`/admin/mailbox/${sent.id}`, { session })).body;
    }, 30_000);
    expect(kept).toMatchObject({ delivery: 'mailbox', text: expect.stringContaining('[link sent to the reader, not kept]') });
    const token = link.split('#token=')[1];
    expect(`${kept.text}${kept.html}`).not.toContain(token);
  });

  it('lets the invitee accept by setting a password, once, and opens their home screen as a viewer', async () => {
    await other.goto(link);
    await other.getByText(`as Viewer, with the email ${VIEWER.email}`, { exact: false }).waitFor();
    expect(await other.title()).toBe('Join a publication · Gatehouse');
    expect(await seriousAccessibilityViolations(other)).toEqual([]);
    await other.getByLabel('Your name').fill(VIEWER.name);
    await other.getByLabel('New password').fill(VIEWER.password);
    await other.getByLabel('Repeat the password').fill('something else');
    await other.getByRole('button', { name: 'Accept and sign in' }).click();
    await other.getByText('The passwords differ.').waitFor();
    await other.getByLabel('Repeat the password').fill(VIEWER.password);
    await other.getByRole('button', { name: 'Accept and sign in' }).click();
    await other.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await other.getByText(`${VIEWER.email} · Viewer`).waitFor();
    await other.getByRole('note').filter({ hasText: 'You are a viewer of Dashboard Daily' }).waitFor();

    const again = await otherBrowser.newPage();
    await again.goto(link);
    await again.getByRole('alert').filter({ hasText: 'This invitation link is unknown, already used, revoked or expired.' }).waitFor();
    await again.close();
  });

  it('shows the viewer every control that would change something as off, with the reason on hover and on focus', async () => {
    // A product with a price, so that the catalog has all its controls.
    const ownerSession = await system.sessionOf();
    const product = (await system.api('/admin/products', { session: ownerSession, body: { name: 'Digital', entitlements: [] } })).body;
    const price = (await system.api(`/admin/products/${product.id}/prices`, { session: ownerSession, body: { currency: 'eur', unitAmount: 900, interval: 'month', trialDays: 0 } })).body;
    expect(price.id).toEqual(expect.any(String));
    const refusals: Array<[screen: string, control: string, reason: string]> = [
      ['Publications', 'Edit Dashboard Daily', 'Only owners of Dashboard Daily change its name and domains; you are a viewer.'],
      ['Team', 'Invite someone', VIEWER_NOT_OWNER],
      ['Team', `Remove ${OWNER.email}`, VIEWER_NOT_OWNER],
      ['API keys', 'Create key pair', AS_VIEWER],
      ['Branding', 'Save branding', AS_VIEWER],
      ['Webhooks', 'Add webhook', AS_VIEWER],
      ['Paywalls', 'New paywall', AS_VIEWER],
      ['Paywalls', 'Save crawler policy', AS_VIEWER],
      ['Segments', 'New segment', AS_VIEWER],
      ['Experiments', 'New experiment', AS_VIEWER],
      ['Catalog', 'New product', AS_VIEWER],
      ['Catalog', 'Check the key and save', AS_VIEWER],
      ['Catalog', 'Edit Digital', AS_VIEWER],
      ['Catalog', 'Delete product', AS_VIEWER],
      ['Catalog', 'Add price', AS_VIEWER],
      ['Catalog', 'Delete', AS_VIEWER],
      ['Customers', 'New customer', AS_VIEWER],
      ['Email', 'Save copy', AS_VIEWER],
    ];
    for (const [screen, control, reason] of refusals) {
      await other.getByRole('link', { name: screen }).click();
      await other.getByRole('heading', { name: screen, level: 1 }).waitFor();
      await expectRefused(other, other.getByRole('button', { name: control, exact: true }).first(), reason);
    }
    // Fields of a screen's own form are read-only too.
    await other.getByRole('link', { name: 'Catalog' }).click();
    expect(await other.getByLabel('Amount').isDisabled()).toBe(true);
    expect(await other.getByLabel('Secret key').isDisabled()).toBe(true);
    await other.getByRole('link', { name: 'Branding' }).click();
    expect(await other.getByLabel('Paywall heading').isDisabled()).toBe(true);
    await other.getByRole('button', { name: 'Save branding' }).hover();
    await otherBrowser.screenshot(other, 'dashboard-team-viewer-refused');
    expect(await seriousAccessibilityViolations(other)).toEqual([]);

    // Nothing changed.
    const session = await system.sessionOf();
    expect((await system.api('/admin/publications', { session })).body.items[0].name).toBe('Dashboard Daily');
    expect((await system.api('/admin/api-keys', { session })).body).toEqual([]);
    expect((await system.api('/admin/webhooks', { session })).body.webhooks).toEqual([]);
    expect((await system.api(`/admin/products/${product.id}`, { session })).body).toMatchObject({ name: 'Digital', active: true });
    expect((await system.api(`/admin/prices/${price.id}`, { session })).status).toBe(200);
  });

  it('shows an editor everything but the team and the publication settings', async () => {
    const editor = await addStaff(system.db.url, 'editor', (await system.api('/admin/session', { session: await system.sessionOf() })).body.publication.id);
    await other.getByRole('button', { name: 'Sign out' }).click();
    await signIn(other, system, editor);
    await other.getByRole('link', { name: 'Team' }).click();
    await expectRefused(other, other.getByRole('button', { name: 'Invite someone', exact: true }).first(), EDITOR_NOT_OWNER);
    await expectRefused(other, other.getByRole('button', { name: `Change role of ${VIEWER.email}` }), EDITOR_NOT_OWNER);
    await expectRefused(other, other.getByRole('button', { name: `Remove ${VIEWER.email}` }), EDITOR_NOT_OWNER);
    await expectRefused(other, other.getByRole('button', { name: `Remove ${OWNER.email}` }), EDITOR_NOT_OWNER);
    // The publication's settings (its name and domains) are the owners'; a publication of their own the editor may create.
    await other.getByRole('link', { name: 'Publications' }).click();
    await expectRefused(other, other.getByRole('button', { name: 'Edit Dashboard Daily' }), 'Only owners of Dashboard Daily change its name and domains; you are an editor.');
    await expectEnabled(other, other.getByRole('button', { name: 'New publication', exact: true }));
    await other.getByRole('link', { name: 'API keys' }).click();
    await other.getByRole('button', { name: 'Create key pair' }).first().click();
    await other.getByRole('dialog', { name: 'Create a key pair' }).waitFor();
    await other.keyboard.press('Escape');
    expect(await other.getByRole('note').count()).toBe(0);

    // Where an editor acts, every control is on and says nothing of a refusal.
    await other.getByRole('link', { name: 'Catalog' }).click();
    await other.getByRole('heading', { name: 'Catalog', level: 1 }).waitFor();
    await other.getByRole('table', { name: 'Prices of Digital' }).waitFor();
    for (const control of ['New product', 'Check the key and save', 'Edit Digital', 'Deactivate', 'Delete product', 'Withdraw', 'Delete', 'Add price']) {
      await expectEnabled(other, other.getByRole('button', { name: control, exact: true }));
    }
    for (const field of ['Secret key', 'Amount', 'Currency', 'Trial days']) expect(await other.getByLabel(field, { exact: true }).isDisabled()).toBe(false);
    await other.getByRole('button', { name: 'Delete', exact: true }).click();
    await other.getByRole('alertdialog', { name: 'Delete the price' }).getByRole('button', { name: 'Cancel' }).click();
    await other.getByRole('button', { name: 'New product' }).click();
    await other.getByRole('dialog', { name: 'New product' }).getByLabel('Name').waitFor();
    await other.keyboard.press('Escape');
    expect(await other.getByRole('note').filter({ hasText: 'viewer' }).count()).toBe(0);
    await otherBrowser.screenshot(other, 'dashboard-team-editor-catalog');
  });

  it('confirms a role change and says it was saved, and never lets the last owner go', async () => {
    await owner.reload();
    await owner.getByRole('table').getByText(VIEWER.email, { exact: true }).waitFor();
    await owner.getByText(`${VIEWER.email} joined (Viewer)`).waitFor();
    await owner.getByText(`${OWNER.email} invited ${VIEWER.email} (Viewer)`).waitFor();

    await owner.getByRole('button', { name: `Change role of ${VIEWER.email}` }).click();
    const dialog = owner.getByRole('dialog', { name: `Change the role of ${VIEWER.email}` });
    await dialog.getByText('Now Viewer of Dashboard Daily.', { exact: false }).waitFor();
    await dialog.getByLabel('Editor', { exact: false }).check();
    await dialog.getByRole('button', { name: 'Make editor' }).click();
    await owner.getByRole('status').filter({ hasText: `Saved: ${VIEWER.email} is now an editor.` }).waitFor();
    await owner.getByRole('row', { name: new RegExp(VIEWER.email) }).getByText('Editor').waitFor();
    expect(await owner.getByRole('button', { name: `Change role of ${VIEWER.email}` }).evaluate((el) => el === document.activeElement)).toBe(true);

    await expectRefused(owner, owner.getByRole('button', { name: `Change role of ${OWNER.email}` }), LAST_OWNER);
    await expectRefused(owner, owner.getByRole('button', { name: `Remove ${OWNER.email}` }), LAST_OWNER);
    // The server refuses it too, whatever a client sends.
    const session = await system.sessionOf();
    const me = (await system.api('/admin/session', { session })).body.staff.id;
    const demoted = await system.api(`/admin/team/members/${me}`, { method: 'PATCH', session, body: { role: 'viewer' } });
    expect(demoted.body).toMatchObject({ status: 409, code: 'conflict', detail: LAST_OWNER });
    expect((await system.api(`/admin/team/members/${me}`, { method: 'DELETE', session })).status).toBe(409);
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
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      await page.getByText(`${member.email} · Viewer`).waitFor();
    } finally {
      await memberBrowser.close();
    }
  });
});
