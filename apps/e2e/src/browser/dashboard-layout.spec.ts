import { eventually, type TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { VIEWPORTS } from '../support/constants';
import { DashboardSystem, signIn, staffBrowser, settled } from '../support/dashboard';
import { ADMIN as OWNER, addStaff } from '../support/staff';

jest.setTimeout(300_000);

/** Every signed-in screen: its path under /dashboard/ and its title (the `<h1>`, and the tab's title before the publication). */
const SCREENS = [
  { path: '', title: 'Home' },
  { path: 'publications', title: 'Publications' },
  { path: 'team', title: 'Team' },
  { path: 'api-keys', title: 'API keys' },
  { path: 'branding', title: 'Branding' },
  { path: 'webhooks', title: 'Webhooks' },
  { path: 'paywalls', title: 'Paywalls' },
  { path: 'segments', title: 'Segments' },
  { path: 'experiments', title: 'Experiments' },
  { path: 'catalog', title: 'Catalog' },
  { path: 'customers', title: 'Customers' },
  { path: 'stats', title: 'Stats' },
  { path: 'email', title: 'Email' },
  { path: 'audit-log', title: 'Audit log' },
  { path: 'imports', title: 'Import and export' },
] as const;

const PHONE = VIEWPORTS.phone;
const TABLET = { width: 768, height: 1024 };
const DESKTOP = VIEWPORTS.desktop;

/** How far the page is wider than the window (0: no horizontal scrolling). */
const OVERFLOW = '(() => document.documentElement.scrollWidth - window.innerWidth)()';

/**
 * Touch targets under 44 × 44 px that a phone user would tap: buttons, switches, sliders, fields,
 * the navigation's links, and the labels of checkboxes and radios (their tap target). Links inside
 * running text are exempt (WCAG 2.5.5).
 */
const SMALL_TARGETS = `(() => {
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
  const targets = [...document.querySelectorAll('button, select, textarea, input, [role=slider], nav a, a[class*="inline-flex"]')]
    .map((el) => (el.matches('input[type=checkbox], input[type=radio], [role=switch]') ? el.closest('label') ?? el : el))
    .filter((el) => !el.closest('.sr-only') && visible(el));
  return [...new Set(targets)]
    .map((el) => ({ el, r: el.getBoundingClientRect() }))
    .filter(({ el, r }) => r.height < 43.5 || (r.width < 43.5 && !el.matches('input, select, textarea')))
    .map(({ el, r }) => (el.getAttribute('aria-label') || el.textContent || el.outerHTML).trim().slice(0, 60) + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
})()`;

/**
 * The dashboard on a phone, a tablet and a desktop: every screen fits its width, names its tab,
 * keeps its touch targets at 44 px on a phone, returns focus to what opened each dialog, and keeps
 * its switches whole right to left.
 */
describe('dashboard: phone, tablet and desktop; titles, focus and direction', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    system = await DashboardSystem.start({ billing: true, customers: true });
    await system.seedEveryScreen();
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  /**
   * Another owner of the publication in a browser of their own: a sweep of every screen at three
   * widths is more than the 200 requests a minute one staff member may make (decisions C1).
   */
  const anotherOwner = async () => {
    const account = await addStaff(system.db.url, 'admin', (await system.api('/admin/session', { session: await system.sessionOf() })).body.publication.id);
    await browser.close();
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, account);
  };

  const open = async (screen: (typeof SCREENS)[number]) => {
    await page.goto(`${system.url}/${screen.path}`);
    await page.getByRole('heading', { name: screen.title, level: 1 }).waitFor();
    await settled(page);
  };

  it('fits every screen into 390, 768 and 1280 px, and the sign-in and invitation pages into 390 and 1280 px, without scrolling sideways, with its own title, and 44 px touch targets on a phone', async () => {
    const problems: object[] = [];
    for (const viewport of [PHONE, TABLET, DESKTOP]) {
      await page.setViewportSize(viewport);
      for (const screen of SCREENS) {
        await open(screen);
        const overflow: number = await page.evaluate(OVERFLOW);
        const title = await page.title();
        const small: string[] = viewport === PHONE ? await page.evaluate(SMALL_TARGETS) : [];
        if (overflow !== 0 || small.length > 0 || title !== `${screen.title} · Dashboard Daily · Gatehouse`) problems.push({ width: viewport.width, screen: screen.title, overflow, title, small });
        if (viewport === PHONE) await browser.screenshot(page, `dashboard-phone-${screen.path || 'home'}`);
      }
    }
    expect(problems).toEqual([]);
    await page.setViewportSize(PHONE);
    await open(SCREENS[6]);
    // The navigation is in the menu on a phone; a dialog takes the screen's whole width.
    expect(await page.getByRole('navigation', { name: 'Areas' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Gatehouse' });
    await menu.getByRole('combobox', { name: 'Publication' }).waitFor();
    await menu.getByText(`${OWNER.email} · Owner`).waitFor();
    await browser.screenshot(page, 'dashboard-phone-menu');
    await menu.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Segments' }).click();
    await page.getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'New segment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New segment' });
    expect(Math.round((await dialog.boundingBox())!.width)).toBe(PHONE.width);
    expect(await page.evaluate(OVERFLOW)).toBe(0);
    expect(await page.evaluate(SMALL_TARGETS)).toEqual([]);
    await browser.screenshot(page, 'dashboard-phone-dialog');
    await page.keyboard.press('Escape');

    await page.setViewportSize(DESKTOP);

    // The pages of someone not signed in: the sign-in screen and an invitation's, in a browser of their own.
    const session = await system.sessionOf();
    const invited = await system.api('/admin/team/invitations', { session, body: { email: 'newcomer@dashboard.example', role: 'editor' } });
    expect(invited.status).toBe(201);
    const visitorBrowser = await staffBrowser();
    try {
      const visitor = await visitorBrowser.newPage();
      const signedOut = [
        { path: 'sign-in', heading: 'Sign in to Gatehouse', title: 'Sign in · Gatehouse', shown: 'Password' },
        { path: `invitation#token=${invited.body.token}`, heading: 'Join a publication on Gatehouse', title: 'Join a publication · Gatehouse', shown: 'Repeat the password' },
      ];
      const outside: object[] = [];
      for (const viewport of [PHONE, DESKTOP]) {
        await visitor.setViewportSize(viewport);
        for (const screen of signedOut) {
          await visitor.goto(`${system.url}/${screen.path}`);
          await visitor.getByRole('heading', { name: screen.heading, level: 1 }).waitFor();
          await visitor.getByLabel(screen.shown, { exact: true }).waitFor();
          const overflow: number = await visitor.evaluate(OVERFLOW);
          const title = await visitor.title();
          const small: string[] = viewport === PHONE ? await visitor.evaluate(SMALL_TARGETS) : [];
          if (overflow !== 0 || small.length > 0 || title !== screen.title) outside.push({ width: viewport.width, screen: screen.heading, overflow, title, small });
          if (viewport === PHONE) await visitorBrowser.screenshot(visitor, `dashboard-phone-${screen.path.split('#')[0]}`);
        }
      }
      expect(outside).toEqual([]);
      expect(await visitor.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^\/dashboard\/assets\/favicon-[\w-]+\.svg$/);
    } finally {
      await visitorBrowser.close();
    }
  });

  it('returns focus to what opened each dialog when it closes, and to the screen when that control is gone', async () => {
    await anotherOwner();
    // An open invitation, whose email is then in the mailbox the Email screen reads.
    const invitee = 'invitee@dashboard.example';
    const session = await system.sessionOf();
    expect((await system.api('/admin/team/invitations', { session, body: { email: invitee, role: 'viewer' } })).status).toBe(201);
    const subject: string = await eventually(
      async () => (await system.api('/admin/mailbox', { session })).body.items.find((m: { to: string }) => m.to === invitee)?.subject ?? undefined,
      30_000,
    );
    const reader = 'reader@daily.example';
    /** Each dialog of the screens (Dialog and ConfirmDialog): the control that opens it, after pressing the buttons `first`. */
    const dialogs: Array<{ screen: (typeof SCREENS)[number]; first?: string[]; opener: string | RegExp; dialog: string; confirm?: true }> = [
      { screen: SCREENS[1], opener: 'New publication', dialog: 'New publication' },
      { screen: SCREENS[1], opener: 'Edit Dashboard Daily', dialog: 'Edit Dashboard Daily' },
      { screen: SCREENS[2], opener: 'Invite someone', dialog: 'Invite someone' },
      { screen: SCREENS[2], opener: `Change role of ${OWNER.email}`, dialog: `Change the role of ${OWNER.email}` },
      { screen: SCREENS[2], opener: `Remove ${OWNER.email}`, dialog: `Remove ${OWNER.email}?`, confirm: true },
      { screen: SCREENS[2], opener: `Revoke the invitation of ${invitee}`, dialog: `Revoke the invitation of ${invitee}?`, confirm: true },
      { screen: SCREENS[3], opener: 'Create key pair', dialog: 'Create a key pair' },
      { screen: SCREENS[3], opener: 'Revoke pair website', dialog: 'Revoke both keys of website?', confirm: true },
      { screen: SCREENS[3], opener: 'Revoke secret key of website', dialog: 'Revoke the secret key', confirm: true },
      { screen: SCREENS[5], opener: 'Add webhook', dialog: 'Add a webhook' },
      { screen: SCREENS[5], opener: 'Edit', dialog: 'Edit webhook' },
      { screen: SCREENS[5], opener: 'Delete', dialog: 'Delete this webhook?', confirm: true },
      { screen: SCREENS[6], opener: 'New paywall', dialog: 'New paywall' },
      { screen: SCREENS[6], opener: 'Edit Premium', dialog: 'Edit Premium' },
      { screen: SCREENS[6], opener: 'Delete Premium', dialog: 'Delete Premium?', confirm: true },
      { screen: SCREENS[7], opener: 'New segment', dialog: 'New segment' },
      { screen: SCREENS[7], opener: 'Edit Mobile readers', dialog: 'Edit Mobile readers' },
      { screen: SCREENS[7], opener: 'Delete Mobile readers', dialog: 'Delete Mobile readers?', confirm: true },
      { screen: SCREENS[8], opener: 'New experiment', dialog: 'New experiment' },
      { screen: SCREENS[8], opener: 'Edit Button copy', dialog: 'Edit Button copy' },
      { screen: SCREENS[8], opener: 'Delete', dialog: 'Delete Button copy?', confirm: true },
      { screen: SCREENS[8], first: ['Start'], opener: 'Stop', dialog: 'Stop Button copy?', confirm: true },
      { screen: SCREENS[9], opener: 'New product', dialog: 'New product' },
      { screen: SCREENS[9], opener: 'Edit Digital', dialog: 'Edit product' },
      { screen: SCREENS[9], opener: 'Delete product', dialog: 'Delete Digital?', confirm: true },
      { screen: SCREENS[9], opener: 'Delete', dialog: 'Delete the price', confirm: true },
      { screen: SCREENS[10], opener: 'New customer', dialog: 'New customer' },
      { screen: SCREENS[10], first: [`Open ${reader}`], opener: 'Edit customer', dialog: `Edit ${reader}` },
      { screen: SCREENS[10], first: [`Open ${reader}`], opener: 'Erase customer', dialog: `Erase ${reader}?`, confirm: true },
      { screen: SCREENS[10], first: [`Open ${reader}`, 'Grant'], opener: 'History', dialog: 'Subscription history' },
      { screen: SCREENS[10], first: [`Open ${reader}`], opener: 'Cancel now', dialog: 'Cancel this subscription now?', confirm: true },
      { screen: SCREENS[12], opener: new RegExp(`^Read the message to ${invitee} of `), dialog: subject },
    ];
    for (const { screen, first = [], opener, dialog, confirm } of dialogs) {
      await open(screen);
      for (const name of first) await page.getByRole('button', { name, exact: true }).first().click();
      const button = page.getByRole('button', { name: opener, exact: true }).first();
      await button.focus();
      const name = ((await button.getAttribute('aria-label')) ?? (await button.textContent()) ?? '').trim();
      await page.keyboard.press('Enter');
      const shown = page.getByRole(confirm ? 'alertdialog' : 'dialog', { name: dialog });
      await shown.waitFor();
      await page.keyboard.press('Escape');
      await shown.waitFor({ state: 'detached' });
      const focused = await eventually(async () => ((await focusedName(page)) === name ? name : undefined), 5_000).catch(() => focusedName(page));
      expect({ dialog, focused }).toEqual({ dialog, focused: name });
    }

    // The dialogs that follow a form's (an invitation's link, a webhook's secret): closing one returns to the button that began it.
    await open(SCREENS[2]);
    await page.getByRole('button', { name: 'Invite someone', exact: true }).first().focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Invite someone' }).getByLabel('Email').fill('second@dashboard.example');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Invitation for second@dashboard.example' }).waitFor();
    await page.keyboard.press('Escape');
    await eventually(async () => ((await focusedName(page)) === 'Invite someone' ? true : undefined));

    await open(SCREENS[5]);
    await page.getByRole('button', { name: 'Add webhook', exact: true }).focus();
    await page.keyboard.press('Enter');
    const adding = page.getByRole('dialog', { name: 'Add a webhook' });
    await adding.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hooks/second');
    await adding.getByRole('checkbox', { name: 'subscription.created' }).check();
    await adding.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('dialog', { name: 'Webhook created' }).getByRole('button', { name: 'I have saved it' }).click();
    expect(await eventually(async () => ((await focusedName(page)) === 'Add webhook' ? 'Add webhook' : undefined), 5_000).catch(() => focusedName(page))).toBe('Add webhook');

    // The menu of a phone's screen.
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Menu' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Gatehouse' }).waitFor();
    await page.keyboard.press('Escape');
    await eventually(async () => ((await focusedName(page)) === 'Menu' ? true : undefined));
    await page.setViewportSize(DESKTOP);

    // A created key pair: its dialog follows the form's, and closing it returns to the button that began it.
    await open(SCREENS[3]);
    await page.getByRole('button', { name: 'Create key pair', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Create a key pair' }).getByLabel('Name').fill('mobile-app');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Key pair mobile-app' }).getByRole('button', { name: 'I have saved them' }).click();
    await eventually(async () => ((await focusedName(page)) === 'Create key pair' ? true : undefined));

    // A revoked key's button goes away with the key: focus moves to the screen's heading, not to the page's start.
    const revoke = page.getByRole('button', { name: 'Revoke secret key of mobile-app' });
    await revoke.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke secret key' }).click();
    await revoke.waitFor({ state: 'detached' });
    await eventually(async () => ((await focusedName(page)) === 'API keys' ? true : undefined));
  });

  it('keeps each switch inside its track, on and off, when the page is forced right to left', async () => {
    await open(SCREENS[6]);
    await page.evaluate('document.documentElement.dir = "rtl"');
    const toggle = page.getByRole('switch', { name: 'Enabled: Premium' });
    for (const state of ['true', 'false']) {
      if ((await toggle.getAttribute('aria-checked')) !== state) await toggle.click();
      await eventually(async () => ((await toggle.getAttribute('aria-checked')) === state ? true : undefined));
      // The thumb moves with a transition: measure once it has arrived.
      const inside = await eventually(() =>
        toggle.evaluate((track) => {
          const outer = track.getBoundingClientRect();
          const thumb = track.firstElementChild!.getBoundingClientRect();
          const within = thumb.left >= outer.left && thumb.right <= outer.right;
          const atEnd = track.getAttribute('aria-checked') === 'true' ? thumb.left - outer.left < 4 : outer.right - thumb.right < 4;
          return within && atEnd ? { within, atEnd } : undefined;
        }),
      );
      expect({ state, ...inside }).toEqual({ state, within: true, atEnd: true });
    }
    await browser.screenshot(page, 'dashboard-rtl-paywalls');
    await page.evaluate('document.documentElement.dir = "ltr"');
  });
});

/** The accessible name of the focused element: its label, or its text. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '';
    return (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
  })()`);
}
