// Browser code runs inside page.evaluate: the DOM types are needed here.
/// <reference lib="dom" />
import { eventually, launchBareBrowser, launchBrowser, type TestBrowser } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { READER_PASSWORD } from '../support/constants';
import { EventReader } from '../support/events';
import { codeIn, SmtpSink } from '../support/mail';
import { SITE, WholeSystem, type Reader } from '../support/system-all';

const LONG = 120_000;
const PASSWORD = READER_PASSWORD;
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/*
 * `<gatehouse-account>` (issue #24 item 1, docs/elements.md) as a reader uses it in Debian's
 * Chromium: a publisher's page on another origin with gatehouse.js, elements.js and account.js,
 * against the whole system with the fake processor.
 */
describe('the account element', () => {
  let system: WholeSystem;
  let events: EventReader;
  let browser: TestBrowser;
  let site: Server;
  let siteUrl: string;
  let priceId: string;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    system = await WholeSystem.start({ domains: ['127.0.0.1'], everyService: true, identityEnv: { SMTP_URL: sink.url, EMAIL_FROM: 'accounts@gazette.example' } });
    events = await EventReader.start(system.namespace, ['subscription.cancelled']);
    const product = await system.product({ name: 'Digital Gazette' });
    priceId = (await system.price(product.id, { currency: 'eur', unitAmount: 900, interval: 'month' })).id;
    const sdkOrigin = system.url.replace('//127.0.0.1:', '//localhost:');
    site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/account') return void res.writeHead(404).end();
      const lang = url.searchParams.get('lang') ?? 'en';
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Account</title>
<script src="${sdkOrigin}/sdk/v1/gatehouse.js" data-publishable-key="${system.publishableKey}" async></script>
<script src="${sdkOrigin}/sdk/v1/account.js" async></script>
</head><body><header><gatehouse-account-button></gatehouse-account-button></header><main><gatehouse-account></gatehouse-account></main></body></html>`);
    });
    await new Promise<void>((ready) => site.listen(0, '127.0.0.1', ready));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, LONG);

  afterAll(async () => {
    await browser?.close();
    site?.close();
    await events?.close();
    await system?.close();
    await sink?.close();
  }, LONG);

  async function reader(): Promise<Reader> {
    const email = `account-${randomUUID().slice(0, 8)}@example.com`;
    const registered = await system.api('/auth/customers/register', { key: system.publishableKey, body: { email, password: PASSWORD, name: 'Ada Reader' } });
    expect(registered.status).toBe(201);
    return { id: registered.body.customer.id, accessToken: registered.body.accessToken, email, customer: registered.body.customer };
  }

  /** The account page (with `fragment`, as a link leads to it), account.js having loaded elements.js by itself and defined its tags; signed out unless `keep` (the tabs share storage). */
  async function open(page: Page, lang = 'en', keep = false, fragment = ''): Promise<Page> {
    await page.goto(`${siteUrl}/account?lang=${lang}${fragment}`);
    await page.waitForFunction(() => customElements.get('gatehouse-account') !== undefined && typeof (globalThis as any).gatehouse?.getProfile === 'function', undefined, {
      timeout: 30_000,
    });
    if (!keep) await page.evaluate(() => (globalThis as any).gatehouse.logout());
    return page;
  }

  const account = (page: Page) => page.locator('main gatehouse-account');
  const signInThroughModal = async (page: Page, email: string) => {
    await account(page).getByRole('button', { name: 'Sign in', exact: true }).click();
    const dialog = page.locator('gatehouse-auth-modal dialog');
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  };
  /** The focused control through shadow roots: `tag(name of a radio)` or `tag(text)`. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active ? `${active.tagName.toLowerCase()}(${active.getAttribute('name') ?? active.textContent?.trim()})` : 'none';
    });
  const seriousViolations = async (page: Page) => {
    if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => (await (globalThis as any).axe.run(document, { resultTypes: ['violations'] })).violations);
    return violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => ({ id: v.id, nodes: v.nodes.map((n: any) => n.target) }));
  };
  const longDate = (page: Page, iso: string, lang = 'en') =>
    page.evaluate(([when, locale]) => new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(when)), [iso, lang] as const);

  it(
    'signed out it offers sign-in; signed in through the auth modal it shows the reader, and the header button names them',
    async () => {
      const ada = await reader();
      const page = await open(await browser.newPage());
      await expect(account(page).getByRole('heading', { name: 'Your account' }).isVisible()).resolves.toBe(true);
      await expect(account(page).getByRole('button', { name: 'Create account' }).isVisible()).resolves.toBe(true);
      await expect(page.locator('header gatehouse-account-button').getByRole('button', { name: 'Sign in' }).isVisible()).resolves.toBe(true);

      await signInThroughModal(page, ada.email);
      await account(page).locator('[part="email"]').filter({ hasText: ada.email }).waitFor();
      await expect(account(page).locator('[part="name"]').textContent()).resolves.toBe('Ada Reader');
      await expect(account(page).locator('[part="verification"]').textContent()).resolves.toBe('Email not verified yet');
      await expect(account(page).getByText('You have no subscription.').isVisible()).resolves.toBe(true);
      await expect(page.locator('header gatehouse-account-button').getByRole('button', { name: 'Your account: Ada Reader' }).isVisible()).resolves.toBe(true);
      expect(await seriousViolations(page)).toEqual([]);

      // The name changes; focus comes back to the button that opened the form.
      await account(page).getByRole('button', { name: 'Edit details' }).click();
      await account(page).getByLabel('Name').fill('Ada Lovelace');
      await account(page).getByRole('button', { name: 'Save' }).click();
      await account(page).locator('[part="status"]').filter({ hasText: 'Your details are saved.' }).waitFor();
      await expect(account(page).locator('[part="name"]').textContent()).resolves.toBe('Ada Lovelace');
      expect((await system.api('/auth/customers/me', { key: system.publishableKey, token: ada.accessToken })).body.name).toBe('Ada Lovelace');
      await page.close();
    },
    LONG,
  );

  it(
    'shows the plan paid at the processor with its price and renewal date, opens the portal, and cancels at the period end with the reason picked',
    async () => {
      const ada = await reader();
      const { subscriptionId, processorId } = await system.subscribe(ada, priceId);
      const stored = (await system.api(`/subscriptions/me?customerId=${ada.id}`, { key: system.secretKey })).body.subscriptions[0];
      const page = await open(await browser.newPage());
      await signInThroughModal(page, ada.email);
      const plan = account(page).locator('[part="subscription"]');
      await plan.waitFor();
      await expect(plan.locator('[part="product"]').textContent()).resolves.toBe('Digital Gazette');
      await expect(plan.locator('[part="price"]').textContent()).resolves.toBe('€9.00 a month');
      await expect(plan.locator('[part="subscription-status"]').textContent()).resolves.toBe('Active');
      const end = await longDate(page, stored.currentPeriodEnd);
      await expect(plan.locator('[part="period"]').textContent()).resolves.toBe(`Renews on ${end}`);

      // Cancel, by keyboard: the dialog takes focus, Escape gives it back, the reason is picked, focus comes back to the plan.
      const cancelButton = plan.getByRole('button', { name: 'Cancel subscription' });
      await cancelButton.focus();
      await page.keyboard.press('Enter');
      const dialog = account(page).getByRole('dialog', { name: 'Cancel your subscription?' });
      await dialog.waitFor({ state: 'visible' });
      await expect(focused(page)).resolves.toBe('input(reason)');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await expect(cancelButton.evaluate((button) => (button.getRootNode() as ShadowRoot).activeElement === button)).resolves.toBe(true);
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'visible' });
      await expect(dialog.textContent()).resolves.toContain(`You keep reading until ${end}.`);
      await dialog.getByLabel('I don’t read it enough').check();
      await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect(plan.locator('[part="period"]').textContent()).resolves.toBe(`Ends on ${end}`);
      await expect(account(page).locator('[role="status"]').textContent()).resolves.toBe(`Ends on ${end}`);
      await expect(plan.getByRole('button', { name: 'Cancel subscription' }).count()).resolves.toBe(0);
      await expect(focused(page)).resolves.toBe('button(Manage billing)');
      const cancelled = await events.waitFor<{ subscriptionId: string; cancellationReason: string; cancelAtPeriodEnd: boolean }>('subscription.cancelled', (d) => d.subscriptionId === subscriptionId);
      expect(cancelled.data).toMatchObject({ cancellationReason: 'unused', cancelAtPeriodEnd: true, status: 'active' });
      expect((await system.fake.requestsTo('POST', `/v1/subscriptions/${processorId}`)).at(-1)!.body).toEqual({ cancel_at_period_end: 'true', cancellation_details: { feedback: 'unused' } });

      // Manage billing: the processor's portal for this reader, coming back to this page.
      await plan.getByRole('button', { name: 'Manage billing' }).click();
      await page.waitForURL((url) => url.toString().startsWith(`${system.fake.url}/portal/bps_`), { timeout: 30_000 });
      const portal = (await system.fake.requestsTo('POST', '/v1/billing_portal/sessions')).at(-1)!;
      expect(portal.body).toMatchObject({ return_url: `${siteUrl}/account?lang=en` });
      await page.close();
    },
    LONG,
  );

  it(
    "offers the picked reason's save instead of cancelling and applies it at the processor; a plan change shows its preview first; another reader pauses for two months, then resumes early",
    async () => {
      const offer = (
        await system.admin('/admin/offers', { body: { name: 'Half price for 3 months', code: `STAY${randomUUID().slice(0, 6).toUpperCase()}`, kind: 'percent', percentOff: 50, duration: 'repeating', durationInMonths: 3 } })
      ).body;
      await system.price((await system.product({ name: 'Gazette Lite' })).id, { currency: 'eur', unitAmount: 500, interval: 'month' });
      const hostile = '<img src=x onerror="window.pwned=1">Too dear';
      const reasons = (await system.admin('/admin/cancellation-reasons')).body.reasons.map((r: { reason: string }) =>
        r.reason === 'too_expensive' ? { ...r, label: hostile, save: { kind: 'discount', offerId: offer.id } } : r,
      );
      expect((await system.admin('/admin/cancellation-reasons', { method: 'PUT', body: { reasons } })).status).toBe(200);

      const ada = await reader();
      const { processorId } = await system.subscribe(ada, priceId);
      const stored = (await system.api(`/subscriptions/me?customerId=${ada.id}`, { key: system.secretKey })).body.subscriptions[0];
      const page = await open(await browser.newPage());
      await signInThroughModal(page, ada.email);
      const plan = account(page).locator('[part="subscription"]');
      await plan.waitFor();
      await plan.getByRole('button', { name: 'Cancel subscription' }).click();
      const dialog = account(page).getByRole('dialog', { name: 'Cancel your subscription?' });
      await dialog.waitFor({ state: 'visible' });
      // Staff's label is text: shown as typed, never run.
      await dialog.getByLabel(hostile, { exact: true }).check();
      const save = dialog.locator('[part="save-offer"]');
      await save.waitFor();
      await expect(save.locator('p').textContent()).resolves.toBe('Stay and get 50 % off: Half price for 3 months');
      expect(await page.evaluate(() => (globalThis as any).pwned)).toBeUndefined();
      await browser.screenshot(page, 'account-save-offer');
      // A reason without a save shows none.
      await dialog.getByLabel('Another reason').check();
      await expect(save.count()).resolves.toBe(0);
      await dialog.getByLabel(hostile, { exact: true }).check();
      await save.getByRole('button', { name: 'Accept the offer' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect(account(page).locator('[role="status"]').textContent()).resolves.toBe('Thank you for staying!');
      const end = await longDate(page, stored.currentPeriodEnd);
      await expect(plan.locator('[part="period"]').textContent()).resolves.toBe(`Renews on ${end}`);
      const atProcessor = await system.fake.object('subscription', processorId);
      expect(atProcessor['discounts']).toHaveLength(1);
      expect(await system.fake.object('discount', atProcessor['discounts'][0])).toMatchObject({ subscription: processorId, end: expect.any(Number) });

      // A plan change states what it does before it is made.
      await plan.getByRole('button', { name: 'Change plan' }).click();
      const change = account(page).getByRole('dialog', { name: 'Change plan' });
      await change.waitFor({ state: 'visible' });
      await change.getByLabel('Gazette Lite · €5.00 a month').check();
      await expect(change.locator('[part="plan-preview"]').textContent()).resolves.toBe(`From ${end}, you pay €5.00.`);
      await browser.screenshot(page, 'account-plan-preview');
      await change.getByRole('button', { name: 'Confirm the change' }).click();
      await change.waitFor({ state: 'hidden' });
      await expect(account(page).locator('[part="status"]').textContent()).resolves.toBe(`Your plan changes on ${end}.`);
      expect((await system.subscriptionsOf(ada.id))[0].scheduledChange).toEqual({ priceId: expect.any(String), effectiveAt: stored.currentPeriodEnd });
      await page.close();

      const bea = await reader();
      const paused = await system.subscribe(bea, priceId);
      const second = await open(await browser.newPage());
      await signInThroughModal(second, bea.email);
      const beaPlan = account(second).locator('[part="subscription"]');
      await beaPlan.getByRole('button', { name: 'Pause' }).click();
      const pause = account(second).getByRole('dialog', { name: 'Pause your subscription' });
      await pause.waitFor({ state: 'visible' });
      await pause.getByLabel('2 months').check();
      await pause.getByRole('button', { name: 'Pause subscription' }).click();
      // The pause goes to the processor and back: on a loaded machine that can take a while. A refusal shows in the dialog: say which.
      const refusal = pause.locator('[part="form-error"]').filter({ hasText: /\S/ });
      const outcome = await Promise.race([
        pause.waitFor({ state: 'hidden', timeout: 60_000 }).then(() => 'closed'),
        refusal.waitFor({ timeout: 60_000 }).then(
          () => 'refused',
          () => 'closed',
        ),
      ]);
      if (outcome === 'refused') expect(await refusal.textContent()).toBe('');
      const pausedUntil = (await system.subscriptionsOf(bea.id))[0].pausedUntil as string;
      await expect(beaPlan.locator('[part="paused"]').textContent()).resolves.toBe(`Paused until ${await longDate(second, pausedUntil)}`);
      // Nothing renews while paused: no "Renews on" beside the pause.
      await expect(beaPlan.locator('[part="period"]').count()).resolves.toBe(0);
      expect((await system.fake.object('subscription', paused.processorId))['pause_collection']).toEqual({ behavior: 'void', resumes_at: new Date(pausedUntil).getTime() / 1000 });
      await browser.screenshot(second, 'account-paused');
      await beaPlan.getByRole('button', { name: 'Resume now' }).click();
      await account(second).locator('[role="status"]').filter({ hasText: 'Your subscription runs again.' }).waitFor();
      await expect(beaPlan.locator('[part="paused"]').count()).resolves.toBe(0);
      await expect(beaPlan.locator('[part="period"]').textContent()).resolves.toMatch(/^Renews on /);
      expect((await system.fake.object('subscription', paused.processorId))['pause_collection']).toBeNull();
      expect(await seriousViolations(second)).toEqual([]);
      await second.close();
    },
    LONG,
  );

  it(
    'tells a reader whose payment failed, with a button to the portal to update the payment method, until a payment succeeds',
    async () => {
      const ada = await reader();
      const { processorId } = await system.subscribe(ada, priceId);
      await system.deliver(await system.fake.invoiceEvent(processorId, 'invoice.payment_failed', { created: system.processorNow() + 1 }));
      await system.eventuallyStatus(ada, 'past_due');
      const page = await open(await browser.newPage());
      await signInThroughModal(page, ada.email);
      const plan = account(page).locator('[part="subscription"]');
      await plan.locator('[part="payment-notice"]').waitFor();
      await expect(plan.locator('[part="subscription-status"]').textContent()).resolves.toBe('Payment due');
      await expect(plan.locator('[part="payment-notice"]').textContent()).resolves.toBe('Your last payment did not go through. Update your payment method to keep reading.');
      await plan.getByRole('button', { name: 'Update payment method' }).click();
      await page.waitForURL((url) => url.toString().startsWith(`${system.fake.url}/portal/bps_`), { timeout: 30_000 });

      await system.deliver(await system.fake.invoiceEvent(processorId, 'invoice.payment_succeeded', { created: system.processorNow() + 2 }));
      await system.eventuallyStatus(ada, 'active');
      await open(page, 'en', true);
      await plan.getByRole('button', { name: 'Manage billing' }).waitFor();
      await expect(plan.locator('[part="payment-notice"]').count()).resolves.toBe(0);
      await page.close();
    },
    LONG,
  );

  it(
    "lists the reader's passes until their end and single articles as links to their pages; a manager's organisation is a section of the account: invite, join from the link, remove",
    async () => {
      const ada = await reader();
      const product = await system.product({ name: 'Reading room' });
      const [dayPass, article] = await Promise.all([
        system.price(product.id, { currency: 'eur', unitAmount: 200, interval: 'pass', passHours: 24 }),
        system.price(product.id, { currency: 'eur', unitAmount: 99, interval: 'single_article' }),
      ]);
      /** Paid at the processor, and confirmed on return as the SDK does. */
      const buy = async (priceId: string, extra: Record<string, unknown> = {}) => {
        const started = await system.checkout(ada, priceId, extra);
        expect(started.status).toBe(201);
        await system.fake.completeCheckout(started.body.sessionId);
        const confirmed = await system.api('/subscriptions/checkout/confirm', { key: system.publishableKey, token: ada.accessToken, body: { sessionId: started.body.sessionId } });
        expect(confirmed.body.status).toBe('complete');
        return confirmed.body.purchase as { endsAt: string };
      };
      const pass = await buy(dayPass.id);
      await buy(article.id, { articleUrl: `${SITE}/premium/long-read` });
      await system.admin('/admin/organisations', { body: { name: 'Newsroom <Desk>', productId: product.id, seats: 2, managerIds: [ada.id] } });

      let page = await open(await browser.newPage());
      await signInThroughModal(page, ada.email);
      const purchases = account(page).locator('[part="purchases"]');
      await purchases.getByRole('heading', { name: 'Passes and articles' }).waitFor();
      const passRow = purchases.locator('[part="purchase"]').filter({ hasText: 'until' });
      await expect(passRow.locator('[part="product"]').textContent()).resolves.toBe('Reading room');
      const until = await page.evaluate((iso) => new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso)), pass.endsAt);
      await expect(passRow.locator('[part="period"]').textContent()).resolves.toBe(`until ${until}`);
      const articleLink = purchases.getByRole('link', { name: `${new URL(SITE).host}/premium/long-read` });
      await expect(articleLink.getAttribute('href')).resolves.toBe(`${SITE}/premium/long-read`);
      // They are no subscription.
      await expect(account(page).getByText('You have no subscription.').isVisible()).resolves.toBe(true);

      // The manager's page, inside the account element: the name staff typed is text, never markup.
      const managed = account(page).getByRole('region', { name: 'Newsroom <Desk>' });
      await managed.getByText('0 of 2 seats used').waitFor();
      const invitee = `invitee-${randomUUID().slice(0, 8)}@example.com`;
      await managed.getByLabel('Email address to invite').fill(invitee);
      await managed.getByRole('button', { name: 'Invite', exact: true }).click();
      await account(page).locator('[part="status"]').filter({ hasText: `Invitation sent to ${invitee}.` }).waitFor();
      await managed.getByRole('list', { name: 'Members' }).getByText(invitee).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await browser.screenshot(page, 'account-passes-and-organisation');
      // Signed out first: a signed-in reader opening an invitation's link takes its seat.
      await page.evaluate(() => (globalThis as any).gatehouse.logout());
      await page.close();

      // The invitation's link leads back to this page, whose account element takes the seat once the invitee signs in.
      const token = await sink.invitationTokenTo(invitee);
      expect(sink.to(invitee).some((mail) => mail.text.includes(`${siteUrl}/account?lang=en#gatehouse-join=${token}`))).toBe(true);
      expect((await system.api('/auth/customers/register', { key: system.publishableKey, body: { email: invitee, password: PASSWORD, name: 'Ivy Invitee' } })).status).toBe(201);
      page = await open(await browser.newPage(), 'en', false, `#gatehouse-join=${token}`);
      await signInThroughModal(page, invitee);
      await account(page).locator('[part="status"]').filter({ hasText: 'Welcome: you now read with a seat of Newsroom <Desk>.' }).waitFor();
      expect(new URL(page.url()).hash).toBe('');
      await page.close();

      // The manager frees the seat from the account page.
      page = await open(await browser.newPage());
      await signInThroughModal(page, ada.email);
      const seats = account(page).getByRole('region', { name: 'Newsroom <Desk>' });
      await seats.getByText('1 of 2 seats used').waitFor();
      await seats.getByRole('button', { name: `Remove ${invitee}` }).click();
      await account(page).locator('[part="status"]').filter({ hasText: `${invitee} no longer holds a seat.` }).waitFor();
      await seats.getByText('0 of 2 seats used').waitFor();
      await page.close();
    },
    LONG,
  );

  it(
    'sign out of all devices in one tab ends the session in another tab and, at its next refresh, on another device',
    async () => {
      const ada = await reader();
      const first = await open(await browser.newPage());
      const second = await open(await browser.newPage(), 'en', true);
      await signInThroughModal(first, ada.email);
      await account(second).locator('[part="email"]').filter({ hasText: ada.email }).waitFor();
      // Another device: a browser of its own, signed in too.
      const other = await launchBareBrowser();
      const device = await open(await (await other.newContext()).newPage());
      await signInThroughModal(device, ada.email);

      await account(first).getByRole('button', { name: 'Sign out of all devices' }).click();
      for (const tab of [first, second]) await account(tab).getByRole('button', { name: 'Create account' }).waitFor();
      // The other device still holds tokens; its next refresh is refused and it shows signed out.
      await device.evaluate((key) => {
        const name = `gatehouse:${key}:session`;
        localStorage.setItem(name, JSON.stringify({ ...JSON.parse(localStorage.getItem(name) as string), refreshAt: 0 }));
      }, system.publishableKey);
      await expect(device.evaluate(() => (globalThis as any).gatehouse.getSession())).resolves.toBeNull();
      await account(device).getByRole('button', { name: 'Create account' }).waitFor();
      await other.close();
      await Promise.all([first.close(), second.close()]);
    },
    LONG,
  );

  it(
    'speaks German with lang="de" and Arabic right to left with lang="ar"',
    async () => {
      const ada = await reader();
      const page = await open(await browser.newPage(), 'de');
      // The elements render once the page's message table (de) has arrived.
      await account(page).getByRole('heading', { name: 'Ihr Konto' }).waitFor();
      await expect(account(page).getByRole('button', { name: 'Konto erstellen' }).isVisible()).resolves.toBe(true);
      await page.evaluate(([email, password]) => (globalThis as any).gatehouse.login({ email, password }), [ada.email, PASSWORD] as const);
      await account(page).getByRole('button', { name: 'Auf allen Geräten abmelden' }).waitFor();
      await expect(account(page).getByRole('button', { name: 'Meine Daten herunterladen' }).isVisible()).resolves.toBe(true);
      await expect(account(page).getByText('Sie haben kein Abo.').isVisible()).resolves.toBe(true);
      // The header button opens the account in a dialog, in the page's language; Escape gives focus back.
      const header = page.locator('header gatehouse-account-button');
      await header.getByRole('button', { name: 'Ihr Konto: Ada Reader' }).click();
      const inDialog = header.getByRole('dialog', { name: 'Ihr Konto' });
      await inDialog.locator('gatehouse-account').getByRole('button', { name: 'Auf allen Geräten abmelden' }).waitFor();
      await page.keyboard.press('Escape');
      await inDialog.waitFor({ state: 'hidden' });
      await expect(focused(page)).resolves.toBe('button(Ada Reader)');

      await open(page, 'ar', true);
      await account(page).getByRole('button', { name: 'تسجيل الخروج من كل الأجهزة' }).waitFor();
      await expect(account(page).locator('[part="container"]').getAttribute('dir')).resolves.toBe('rtl');
      await expect(account(page).getByRole('heading', { name: 'حسابك' }).isVisible()).resolves.toBe(true);
      // Right to left as laid out: the heading's text starts at the right edge of the element.
      const [box, heading] = await Promise.all([account(page).boundingBox(), account(page).getByRole('heading', { name: 'حسابك' }).evaluate((h) => {
        const range = document.createRange();
        range.selectNodeContents(h);
        return range.getBoundingClientRect().right;
      })]);
      expect(Math.abs(box!.x + box!.width - heading)).toBeLessThan(2);
      await page.close();
    },
    LONG,
  );

  it(
    'downloads everything held about the reader as one JSON document, and deletes the account once the password confirms it',
    async () => {
      const ada = await reader();
      const page = await open(await browser.newPage());
      await signInThroughModal(page, ada.email);
      await account(page).locator('[part="email"]').filter({ hasText: ada.email }).waitFor();

      const [download] = await Promise.all([page.waitForEvent('download'), account(page).getByRole('button', { name: 'Download my data' }).click()]);
      expect(download.suggestedFilename()).toBe('my-data.json');
      const document = readFileSync((await download.path())!, 'utf8');
      expect(document).toContain(ada.email);
      expect(document).toContain(ada.id);
      await account(page).locator('[part="status"]').filter({ hasText: 'Your data is downloaded.' }).waitFor();

      // A wrong password is refused in the dialog, and the account stays.
      await account(page).getByRole('button', { name: 'Delete my account' }).click();
      const dialog = account(page).getByRole('dialog', { name: 'Delete your account?' });
      await dialog.getByLabel('Password').fill('not-the-password');
      await dialog.locator('button[type="submit"]').click();
      await dialog.locator('[part="form-error"]').filter({ hasText: /\S/ }).waitFor();
      expect((await system.api('/auth/customers/me', { key: system.publishableKey, token: ada.accessToken })).status).toBe(200);

      await dialog.getByLabel('Password').fill(PASSWORD);
      await dialog.locator('button[type="submit"]').click();
      await account(page).locator('[part="status"]').filter({ hasText: 'Your account is deleted.' }).waitFor();
      await expect(account(page).getByRole('button', { name: 'Create account' }).isVisible()).resolves.toBe(true);
      expect((await system.api('/auth/customers/login', { key: system.publishableKey, body: { email: ada.email, password: PASSWORD } })).status).toBe(401);
      await page.close();
    },
    LONG,
  );

  it(
    'deletes the account of a reader confirming by a code emailed to them instead of a password',
    async () => {
      const ada = await reader();
      const page = await open(await browser.newPage());
      await signInThroughModal(page, ada.email);
      await account(page).locator('[part="email"]').filter({ hasText: ada.email }).waitFor();
      await account(page).getByRole('button', { name: 'Delete my account' }).click();
      const dialog = account(page).getByRole('dialog', { name: 'Delete your account?' });
      const before = sink.to(ada.email).length;
      await dialog.getByRole('button', { name: 'Email me a code instead' }).click();
      await dialog.getByText(`We sent a 6-digit code to ${ada.email}. Enter it to confirm.`).waitFor();
      const mail = await eventually(() => sink.to(ada.email)[before], 30_000);
      await dialog.getByLabel('6-digit code').fill(codeIn(mail.text));
      await dialog.locator('button[type="submit"]').click();
      await account(page).locator('[part="status"]').filter({ hasText: 'Your account is deleted.' }).waitFor();
      expect((await system.api('/auth/customers/me', { key: system.publishableKey, token: ada.accessToken })).status).toBe(401);
      await page.close();
    },
    LONG,
  );
});
