// Browser code runs inside page.evaluate: the DOM types are needed here.
/// <reference lib="dom" />
import { eventually, launchBareBrowser, launchBrowser, type TestBrowser } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { LocalStart } from '../support/local-start';

const LONG = 120_000;

/*
 * The demo publisher site of `npm start` (issue 12) as a reader meets it in Debian's Chromium:
 * metered articles until the paywall, an account made in the auth modal, a checkout the local
 * fake processor completes, then the subscribers-only article. And the auth modal by keyboard.
 */
describe('the demo publisher site', () => {
  let local: LocalStart;
  let browser: TestBrowser;
  /** For other readers, each in a context of their own. */
  let others: Browser;

  beforeAll(async () => {
    local = await LocalStart.start({ database: 'test', env: { BCRYPT_COST: '4' } });
    [browser, others] = await Promise.all([launchBrowser(), launchBareBrowser()]);
    await browser.context.addInitScript(recordEvents);
  }, LONG);

  afterAll(async () => {
    await browser?.close();
    await others?.close();
    await local?.close();
  }, LONG);

  /** Records the elements' DOM events in the tab's sessionStorage, which outlives the checkout's round trip. */
  function recordEvents(): void {
    for (const type of ['login', 'register', 'close', 'checkout']) {
      document.addEventListener(type, () => sessionStorage.setItem('seen', JSON.stringify([...JSON.parse(sessionStorage.getItem('seen') ?? '[]'), type])), true);
    }
  }
  const seenEvents = (page: Page): Promise<string[]> => page.evaluate(() => JSON.parse(sessionStorage.getItem('seen') ?? '[]'));

  /** A new reader's page, in a browser context of its own. */
  async function newReader(): Promise<Page> {
    const page = await (await others.newContext()).newPage();
    await page.addInitScript(recordEvents);
    return page;
  }

  const url = (path: string) => `${local.url}${path}`;
  const paywallDialog = (page: Page) => page.locator('gatehouse-paywall-modal dialog');
  const authDialog = (page: Page) => page.locator('gatehouse-auth-modal dialog');
  /** The page once the SDK answered its access check (the elements render from it). */
  const opened = async (page: Page, path: string) => {
    await page.goto(url(path));
    await page.waitForFunction(() => (globalThis as any).gatehouse?.lastAccess != null, undefined, { timeout: 30_000 });
    return page;
  };

  it('prints its address and serves the home page with the SDK script tag as a publisher pastes it', async () => {
    expect(local.output).toContain(`Demo publisher site: ${local.url}/demo/`);
    const page = await opened(await browser.newPage(), '/demo/');
    const html = await (await fetch(url('/demo/'))).text();
    expect(html).toMatch(/<script src="\/sdk\/v1\/gatehouse\.js" data-publishable-key="pk_[^"]+" async><\/script>/);
    expect(html).toContain('<script src="/sdk/v1/elements.js" async></script>');
    await expect(page.locator('gatehouse-login-form h2').textContent()).resolves.toBe('Sign in');
    await browser.screenshot(page, 'demo-home');
    await page.close();
  }, LONG);

  it('lets a reader read metered articles until denied, register in the auth modal, subscribe through checkout, then read the premium article', async () => {
    const page = await browser.newPage();
    const notice = page.locator('gatehouse-meter-notice [part~="notice"]');
    // The meter notice counts down to the wall, with a way to an account for a reader not signed in.
    const countdown = ['2 free articles left this month', '1 free article left this month', 'This is your last free article this month.'];
    for (const [i, slug] of ['council-budget', 'new-tram-line', 'river-clean-up'].entries()) {
      await opened(page, `/demo/metered/${slug}`);
      expect(await page.evaluate(() => (globalThis as any).gatehouse.lastAccess.granted)).toBe(true);
      await expect(paywallDialog(page).isVisible()).resolves.toBe(false);
      await eventually(async () => ((await notice.textContent().catch(() => null))?.startsWith(countdown[i]) ? true : undefined), 10_000);
      await expect(notice.getByRole('button', { name: 'Create a free account' }).isVisible()).resolves.toBe(true);
      if (i === 0) await browser.screenshot(page, 'demo-meter-notice');
    }
    await opened(page, '/demo/metered/market-square');
    await paywallDialog(page).waitFor({ state: 'visible' });
    await expect(notice.count()).resolves.toBe(0);
    await expect(paywallDialog(page).locator('h2').textContent()).resolves.toBe('Subscribe to keep reading');
    // The text stays locked, and the modal makes the page's one offer.
    await expect(page.getByText('Officials said the first stage').isVisible()).resolves.toBe(false);
    await expect(page.locator('[part~="plans"]').count()).resolves.toBe(1);
    // The publication's prices on sale, from the service.
    await expect(paywallDialog(page).locator('[part~="plan"]').allTextContents()).resolves.toEqual(['Demo Gazette Digital$5.00 a month']);
    await browser.screenshot(page, 'demo-metered-denied');

    await paywallDialog(page).getByRole('button', { name: 'Subscribe', exact: true }).click();
    await authDialog(page).waitFor({ state: 'visible' });
    await expect(authDialog(page).locator('h2').textContent()).resolves.toBe('Create your account');
    const email = `demo-reader-${randomUUID()}@example.com`;
    await authDialog(page).getByLabel('Name').fill('Demo Reader');
    await authDialog(page).getByLabel('Email').fill(email);
    await authDialog(page).getByLabel('Password').fill('reader-password-1');
    await browser.screenshot(page, 'demo-register');
    await authDialog(page).getByRole('button', { name: 'Create account', exact: true }).click();

    // The checkout goes on by itself: the fake processor's hosted page, then back to the article.
    await page.waitForURL(/\/checkout\/cs_/, { timeout: 30_000 });
    await expect(page.locator('h1').textContent()).resolves.toBe('Fake checkout');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(url('/demo/metered/market-square'), { timeout: 30_000 });
    expect(await seenEvents(page)).toEqual(['checkout', 'register', 'close']);
    // Back on the article, which the confirmed checkout opens without a reload.
    await page.getByText('Officials said the first stage').waitFor({ state: 'visible', timeout: 30_000 });
    await eventually(async () => ((await page.locator('[part~="confirmation"]').textContent()) === 'You are subscribed. Enjoy reading!' ? true : undefined), 10_000);
    await browser.screenshot(page, 'demo-metered-subscribed');

    // The processor's events reach billing asynchronously: the premium article opens once they did.
    await eventually(async () => {
      await opened(page, '/demo/premium/investigation');
      const result = await page.evaluate(() => (globalThis as any).gatehouse.lastAccess);
      return result.granted && result.reason === 'subscriber' ? true : undefined;
    }, 60_000);
    // The server sends the subscriber the whole article: no lock in its place.
    await expect(page.locator('article').getByText('Several speakers urged the council').isVisible()).resolves.toBe(true);
    await expect(page.locator('gatehouse-content-lock').count()).resolves.toBe(0);
    await browser.screenshot(page, 'demo-premium-subscriber');

    // The paywall's events reached the service: the stats count the shown and converted paywall.
    const session = await local.sessionOf();
    const paywalls = (await local.api('/admin/paywalls?limit=100', { session })).body.items as Array<{ id: string; name: string }>;
    const meteredId = paywalls.find((p) => p.name === 'Demo: metered news')!.id;
    const from = new Date(Date.now() - 3600_000).toISOString();
    const to = new Date(Date.now() + 3600_000).toISOString();
    await eventually(async () => {
      const stats = (await local.api(`/admin/stats?from=${from}&to=${to}&interval=hour`, { session })).body;
      const row = (stats.paywalls ?? []).find((p: { paywallId: string }) => p.paywallId === meteredId);
      return row && row.shown >= 1 && row.converted >= 1 && stats.totals.newSubscriptions >= 1 ? true : undefined;
    }, 30_000);
    await page.close();
  }, 4 * LONG);

  it('works by keyboard alone: the auth modal opens, keeps focus inside, closes on Escape and gives focus back', async () => {
    const page = await opened(await browser.newPage(), '/demo/');
    // The header's account button (account.js), signed out (the reader of the test before signed in in this browser).
    await page.evaluate(() => (globalThis as any).gatehouse.logout());
    const signIn = page.locator('header gatehouse-account-button').getByRole('button', { name: 'Sign in', exact: true });
    await signIn.focus();
    await page.keyboard.press('Enter');
    await authDialog(page).waitFor({ state: 'visible' });
    const focused = () => page.evaluate(() => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active ? `${active.tagName.toLowerCase()}${active.getAttribute('name') ? `[name=${active.getAttribute('name')}]` : ''}:${active.closest('dialog') ? 'in-dialog' : 'outside'}` : 'none';
    });
    await expect(focused()).resolves.toBe('input[name=email]:in-dialog');
    // Through every control and round: focus never leaves the dialog.
    const seen: string[] = [];
    for (let i = 0; i < 7; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused());
    }
    expect(seen.every((f) => f.endsWith(':in-dialog'))).toBe(true);
    expect(seen).toContain('input[name=password]:in-dialog');
    // The focused control carries a visible focus ring.
    const ring = await page.evaluate(() => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      const style = getComputedStyle(active as Element);
      return { outline: style.outlineStyle, shadow: style.boxShadow };
    });
    expect(ring.outline !== 'none' || ring.shadow !== 'none').toBe(true);
    expect(seen.filter((f) => f === 'input[name=email]:in-dialog').length).toBeGreaterThanOrEqual(1);
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toMatch(/:in-dialog$/);

    await page.keyboard.press('Escape');
    await authDialog(page).waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).className)).toBe('signin');

    // A wrong password answers in the form, and the right one signs in: by keyboard too.
    const key = /data-publishable-key="(pk_[^"]+)"/.exec(await (await fetch(url('/demo/'))).text())![1];
    const email = `keyboard-${randomUUID()}@example.com`;
    expect((await local.api('/auth/customers/register', { key, body: { email, password: 'reader-password-1', name: 'Keys' } })).status).toBe(201);
    await page.keyboard.press('Enter');
    await authDialog(page).waitFor({ state: 'visible' });
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('wrong-password-1');
    await page.keyboard.press('Enter');
    const error = await eventually(async () => (await authDialog(page).locator('[part="form-error"]').textContent())?.trim() || undefined, 30_000);
    expect(error).not.toBe('Something went wrong. Please try again.');
    await expect(authDialog(page).isVisible()).resolves.toBe(true);
    await browser.screenshot(page, 'demo-auth-modal-error');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('reader-password-1');
    await page.keyboard.press('Enter');
    await authDialog(page).waitFor({ state: 'hidden', timeout: 30_000 });
    expect(await seenEvents(page)).toEqual(['close', 'login', 'close']);
    // The header's account button now names the reader.
    await page.locator('header gatehouse-account-button').getByRole('button', { name: 'Your account: Keys' }).waitFor();
    await page.close();
  }, 2 * LONG);

  it('shows field errors from the problem details beside their fields, then registers and fires `register`', async () => {
    const page = await newReader();
    await opened(page, '/demo/free/harbour-festival');
    const form = page.locator('gatehouse-register-form');
    await form.getByLabel('Name').fill('Field Errors');
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByLabel('Password').fill('x');
    await form.getByRole('button', { name: 'Create account', exact: true }).click();
    const emailError = form.locator('#email-error');
    await eventually(async () => ((await emailError.textContent())?.trim() ? true : undefined), 30_000);
    await expect(form.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(form.getByLabel('Email').getAttribute('aria-describedby')).resolves.toBe('email-error');
    await browser.screenshot(page, 'demo-register-field-errors');
    await form.getByLabel('Email').fill(`field-errors-${randomUUID()}@example.com`);
    await form.getByLabel('Password').fill('reader-password-1');
    await form.getByRole('button', { name: 'Create account', exact: true }).click();
    await eventually(async () => ((await seenEvents(page)).includes('register') ? true : undefined), 30_000);
    await expect(form.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBe('false');
    await page.context().close();
  }, LONG);

  it("opens the newsletter wall once the reader signs up, the wall speaking of the newsletter in its own copy: the event is sent and access checked again", async () => {
    const page = await newReader();
    await opened(page, '/demo/newsletter/weekend-guide');
    const wall = page.locator('gatehouse-inline-paywall');
    await expect(wall.getByRole('heading').textContent()).resolves.toBe('Get our newsletter to keep reading');
    // No subscription's words on a newsletter wall.
    const words = (await wall.locator('[part~="card"]').innerText()).replace(/\s+/g, ' ');
    expect(words).toContain('the newsletter is free');
    expect(words).not.toMatch(/subscri|cancel any time|per month|a month/i);
    const rest = page.locator('article').getByText('Several speakers urged the council');
    await expect(rest.count()).resolves.toBe(0);
    await wall.getByLabel('Email').fill(`newsletter-${randomUUID()}@example.com`);
    await wall.getByRole('button', { name: 'Sign up', exact: true }).click();
    // The server held the rest back; granted now, the page fetches it in place of the wall.
    await rest.waitFor({ state: 'visible', timeout: 30_000 });
    await expect(wall.count()).resolves.toBe(0);
    expect(await page.evaluate(() => (globalThis as any).gatehouse.lastAccess.reason)).toBe('newsletter_passed');
    await page.context().close();
  }, LONG);

  it('lets a reader close the paywall modal with Escape onto the locked article: `close` fires and the paywall counts as dismissed', async () => {
    const session = await local.sessionOf();
    const paywalls = (await local.api('/admin/paywalls?limit=100', { session })).body.items as Array<{ id: string; name: string }>;
    const meteredId = paywalls.find((p) => p.name === 'Demo: metered news')!.id;
    const dismissed = async () => {
      const from = new Date(Date.now() - 3600_000).toISOString();
      const to = new Date(Date.now() + 3600_000).toISOString();
      const stats = (await local.api(`/admin/stats?from=${from}&to=${to}&interval=hour`, { session })).body;
      return ((stats.paywalls ?? []).find((p: { paywallId: string }) => p.paywallId === meteredId)?.dismissed ?? 0) as number;
    };
    const before = await dismissed();
    const page = await newReader();
    for (const slug of ['council-budget', 'new-tram-line', 'river-clean-up', 'school-results']) await opened(page, `/demo/metered/${slug}`);
    await paywallDialog(page).waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await paywallDialog(page).waitFor({ state: 'hidden' });
    expect(await seenEvents(page)).toContain('close');
    // Closed, not read: the article stays locked, its offer a button away.
    await expect(page.getByText('Officials said the first stage').isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await paywallDialog(page).waitFor({ state: 'visible' });
    // Events leave in batches, and at the latest as the page goes.
    await page.goto(url('/demo/'));
    await eventually(async () => ((await dismissed()) > before ? true : undefined), 30_000);
    await page.context().close();
  }, LONG);
});
