// Browser code runs inside page.evaluate: the DOM types are needed here.
/// <reference lib="dom" />
import { EMAIL_LINK_PARAMETERS, type EmailKind } from '@gatehouse/contracts';
import { eventually, launchBrowser, type TestBrowser } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page, Request } from 'playwright-core';
import { LocalStart } from '../support/local-start';
import { codeIn, linkIn, SmtpSink, type ReceivedMail } from '../support/mail';

const LONG = 120_000;
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PASSWORD = 'first password 1';
const NEW_PASSWORD = 'second password 2';

/*
 * "Forgot password?" and "Email me a code" of the web components (docs/elements.md, issue #18
 * item 6), as a reader goes through them in Debian's Chromium: `npm start` sending account email
 * to a real SMTP server started here, a publisher's page on another origin carrying the SDK and
 * the elements, and the reader following the emails.
 */
describe('account email through the web components', () => {
  let local: LocalStart;
  let sink: SmtpSink;
  let browser: TestBrowser;
  let publishableKey: string;
  /** The publisher's site on 127.0.0.1, one of the bootstrap publication's domains; the gateway is on localhost. */
  let site: Server;
  let siteUrl: string;
  /** Every API request of the browser, in order. */
  const requests: Request[] = [];

  /** Pages below the site's root, each on the site's own port: an emailed link must come back to the very page. */
  const PAGES: Record<string, string> = {
    '/members/account': '<h1>Your account</h1><gatehouse-login-form></gatehouse-login-form>',
    '/members/join': '<h1>Join the Gazette</h1><gatehouse-register-form></gatehouse-register-form>',
    '/news/2026/a-story': '<h1>A story</h1><p>Words.</p><button class="signin" type="button" onclick="document.querySelector(\'gatehouse-auth-modal\').show(\'login\')">Sign in</button><gatehouse-auth-modal></gatehouse-auth-modal>',
  };

  beforeAll(async () => {
    sink = await SmtpSink.start();
    site = createServer((req, res) => {
      const body = PAGES[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Gazette</title>
<script>
  window.seen = [];
  for (const type of ['login', 'close']) addEventListener(type, () => seen.push(type));
  window.gatehouse = window.gatehouse || [];
  gatehouse.push(['onAuthChange', (session) => seen.push(session ? 'signed in as ' + session.customer.email : 'signed out')]);
</script>
<script src="${local.url}/sdk/v1/gatehouse.js" data-publishable-key="${publishableKey}" async></script>
<script src="${local.url}/sdk/v1/elements.js" async></script>
<style>body { margin: 16px; font-family: serif; max-width: 560px; }</style></head><body><main>${body}</main></body></html>`);
    });
    await new Promise<void>((ready) => site.listen(0, '127.0.0.1', ready));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    local = await LocalStart.start({ database: 'test', env: { BCRYPT_COST: '4', SMTP_URL: sink.url, EMAIL_FROM: 'accounts@gazette.example' } });
    const session = await local.sessionOf();
    publishableKey = (await local.api('/admin/api-keys', { session, body: { name: 'account-email-elements' } })).body.publishableKey;
    browser = await launchBrowser();
    browser.context.on('request', (request) => {
      if (request.url().includes('/api/v1/')) requests.push(request);
    });
  }, 3 * LONG);

  afterAll(async () => {
    await browser?.close();
    site?.close();
    await local?.close();
    await sink?.close();
  }, LONG);

  async function reader(): Promise<string> {
    const email = `reader-${randomUUID().slice(0, 8)}@example.com`;
    const registered = await local.api('/auth/customers/register', { key: publishableKey, body: { email, password: PASSWORD, name: 'Ada Reader' } });
    expect(registered.status).toBe(201);
    return email;
  }

  const login = (email: string, password: string) => local.api('/auth/customers/login', { key: publishableKey, body: { email, password } });

  /** Opens a page of the site (or a link into it) once the SDK is initialised and the elements are defined. */
  async function open(url: string, page?: Page): Promise<Page> {
    const tab = page ?? (await browser.newPage());
    await tab.goto(url);
    await tab.waitForFunction(() => typeof (globalThis as any).gatehouse?.readEmailLink === 'function' && customElements.get('gatehouse-login-form') !== undefined, undefined, { timeout: 30_000 });
    return tab;
  }

  /** The focused control, looking through shadow roots: `tag[name]` or `tag(part)`. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      if (!active) return 'none';
      return `${active.tagName.toLowerCase()}${active.getAttribute('name') ? `[name=${active.getAttribute('name')}]` : ''}${active.getAttribute('part') ? `(${active.getAttribute('part')})` : ''}`;
    });

  const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
  const seen = (page: Page): Promise<string[]> => page.evaluate(() => (globalThis as any).seen);
  const storedEmail = (page: Page) =>
    page.evaluate((key) => JSON.parse(localStorage.getItem(`gatehouse:${key}:session`) ?? 'null')?.customer.email ?? null, publishableKey);

  async function seriousViolations(page: Page): Promise<unknown[]> {
    if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => (await (globalThis as any).axe.run(document, { resultTypes: ['violations'] })).violations);
    return violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => ({ id: v.id, nodes: v.nodes.map((n: any) => n.target) }));
  }

  /** The message of that kind to `email` (each reader here gets one of each; registration sends a verification message too). */
  const mailOf = (email: string, kind: EmailKind): Promise<ReceivedMail> =>
    eventually(() => sink.to(email).find((mail) => mail.text.includes(`#${EMAIL_LINK_PARAMETERS[kind]}=`)), 60_000);

  const ACCOUNT = () => `${siteUrl}/members/account`;
  const STORY = () => `${siteUrl}/news/2026/a-story?ref=front`;
  const JOIN = () => `${siteUrl}/members/join`;

  it(
    'a reader who forgot the password asks in the login form, opens the emailed link on that same page, chooses a new password and sees that they are signed in',
    async () => {
      const email = await reader();
      const page = await open(ACCOUNT());
      const form = page.locator('gatehouse-login-form');
      await expect(text(form.locator('[part="forgot-link"]'))).resolves.toBe('Forgot password?');
      await expect(text(form.locator('[part="code-link"]'))).resolves.toBe('Email me a code');
      await browser.screenshot(page, 'account-email-login-form');
      await form.locator('[part="forgot-link"]').click();
      await expect(text(form.locator('[part="heading"]'))).resolves.toBe('Reset your password');
      await expect(focused(page)).resolves.toBe('input[name=email](input)');
      expect(await seriousViolations(page)).toEqual([]);

      await page.keyboard.type(email);
      await page.keyboard.press('Enter');
      await eventually(async () => ((await text(form.locator('[part="heading"]'))) === 'Check your inbox' ? true : undefined), 30_000);
      expect(await text(form.locator('[part="description"]'))).toBe(`If ${email} belongs to an account, a link to choose a new password is on its way. It works for 30 minutes.`);
      // Focus moves to what happened, so that a screen reader says it.
      await expect(focused(page)).resolves.toBe('p(description)');
      await browser.screenshot(page, 'account-email-forgot-sent');

      const mail = await mailOf(email, 'password_reset');
      const link = linkIn(mail.text, 'password_reset');
      // The link leads back to the page the reader asked on: its origin, port included, and path.
      expect(link.url).toBe(`${ACCOUNT()}#gatehouse-reset-password=${link.token}`);

      // Opening the link uses nothing up: the form asks for the new password first, and the token leaves the address bar.
      const since = requests.length;
      const linked = await open(link.url);
      const linkedForm = linked.locator('gatehouse-login-form');
      await eventually(async () => ((await text(linkedForm.locator('[part="heading"]'))) === 'Choose a new password' ? true : undefined), 30_000);
      expect(linked.url()).toBe(ACCOUNT());
      expect(await linked.locator('gatehouse-login-form').getByLabel('New password').getAttribute('autocomplete')).toBe('new-password');
      expect(await seriousViolations(linked)).toEqual([]);
      await browser.screenshot(linked, 'account-email-reset-form');
      expect(requests.slice(since).some((r) => r.url().includes('/password-reset/confirm'))).toBe(false);
      expect((await login(email, PASSWORD)).status).toBe(200);

      // A password too short is refused beside its field.
      await linkedForm.getByLabel('New password').fill('short');
      await linkedForm.locator('[part="primary-button"]').click();
      const fieldError = await eventually(async () => (await text(linkedForm.locator('[part="field-error"]').first())) || undefined, 30_000);
      expect(fieldError).toMatch(/8/);
      await expect(focused(linked)).resolves.toBe('input[name=password](input)');

      await linkedForm.getByLabel('New password').fill(NEW_PASSWORD);
      await linkedForm.locator('[part="primary-button"]').click();
      await eventually(async () => ((await storedEmail(linked)) === email ? true : undefined), 30_000);
      expect(await seen(linked)).toEqual([`signed in as ${email}`, 'login']);
      // The form gives way to what happened, on the page the link opened, and a screen reader says it.
      await expect(text(linkedForm.locator('[part="heading"]'))).resolves.toBe('You are signed in');
      await expect(text(linkedForm.locator('[part="description"]'))).resolves.toBe(`Your new password is saved, and you are signed in as ${email}.`);
      await expect(focused(linked)).resolves.toBe('p(description)');
      expect(linked.url()).toBe(ACCOUNT());
      expect(await seriousViolations(linked)).toEqual([]);
      await browser.screenshot(linked, 'account-email-reset-signed-in');
      expect((await login(email, PASSWORD)).status).toBe(401);
      expect((await login(email, NEW_PASSWORD)).status).toBe(200);
      // The page opened again keeps saying so; signing out brings the sign-in form back.
      await linked.reload();
      await eventually(async () => ((await text(linkedForm.locator('[part="heading"]'))) === 'You are signed in' ? true : undefined), 30_000);
      await expect(text(linkedForm.locator('[part="description"]'))).resolves.toBe(`You are signed in as ${email}.`);
      // On load it says so without taking the focus from the page.
      await expect(focused(linked)).resolves.toBe('body');
      await linkedForm.locator('[part="sign-out-link"]').click();
      await eventually(async () => ((await text(linkedForm.locator('[part="heading"]'))) === 'Sign in' ? true : undefined), 30_000);
      // The focus follows the form's render: at once for a reader, a moment later for a loaded test machine.
      await eventually(async () => ((await focused(linked)) === 'input[name=email](input)' ? true : undefined), 10_000);
      expect(await storedEmail(linked)).toBeNull();

      // The same link a second time: refused in words the reader understands.
      const again = await open(link.url);
      const againForm = again.locator('gatehouse-login-form');
      await eventually(async () => ((await text(againForm.locator('[part="heading"]'))) === 'Choose a new password' ? true : undefined), 30_000);
      await againForm.getByLabel('New password').fill('third password 3');
      await againForm.locator('[part="primary-button"]').click();
      const refused = await eventually(async () => (await text(againForm.locator('[part="form-error"]'))) || undefined, 30_000);
      expect(refused).toBe('This link has expired or has been used already. Please ask for a new one.');
      expect(await storedEmail(again)).toBeNull();
      await Promise.all([page.close(), linked.close(), again.close()]);
    },
    4 * LONG,
  );

  it(
    'a reader signs in with an emailed code in the auth modal: a wrong code is refused, the right one signs in',
    async () => {
      const email = await reader();
      const page = await open(STORY());
      await page.locator('button.signin').click();
      const dialog = page.locator('gatehouse-auth-modal dialog');
      await dialog.waitFor({ state: 'visible' });
      // A step left half-way does not stay: closed and opened again, the modal starts at the password form.
      await dialog.locator('[part="forgot-link"]').click();
      await expect(text(dialog.locator('[part="heading"]'))).resolves.toBe('Reset your password');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await page.locator('button.signin').click();
      await dialog.waitFor({ state: 'visible' });
      await expect(text(dialog.locator('[part="heading"]'))).resolves.toBe('Sign in');
      await dialog.locator('[part="code-link"]').click();
      await expect(text(dialog.locator('[part="heading"]'))).resolves.toBe('Sign in with a code');
      await expect(focused(page)).resolves.toBe('input[name=email](input)');

      await page.keyboard.type(email);
      await page.keyboard.press('Enter');
      await eventually(async () => ((await text(dialog.locator('[part="heading"]'))) === 'Check your inbox' ? true : undefined), 30_000);
      // Straight to the code: its label and what was sent describe it.
      await expect(focused(page)).resolves.toBe('input[name=code](input code-input)');
      const code = dialog.getByLabel('6-digit code');
      expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
      expect(await code.getAttribute('inputmode')).toBe('numeric');
      expect(await seriousViolations(page)).toEqual([]);
      await browser.screenshot(page, 'account-email-code-sent');

      const mail = await mailOf(email, 'login_code');
      const right = codeIn(mail.text);
      const wrong = right === '000000' ? '111111' : '000000';
      await page.keyboard.type(wrong);
      await page.keyboard.press('Enter');
      // Beside the code it names, which takes the focus.
      const refused = await eventually(async () => (await text(dialog.locator('#code-error'))) || undefined, 30_000);
      expect(refused).toBe('That code is wrong or has expired. Check the email, or ask for a new code.');
      await expect(code.getAttribute('aria-invalid')).resolves.toBe('true');
      await browser.screenshot(page, 'account-email-code-wrong');
      expect(await storedEmail(page)).toBeNull();

      await code.fill(right);
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
      expect(await storedEmail(page)).toBe(email);
      expect(await seen(page)).toEqual(['close', `signed in as ${email}`, 'login', 'close']);
      expect(await focused(page)).toBe('button');
      await page.evaluate(() => (globalThis as any).gatehouse.logout());
      await page.close();
    },
    4 * LONG,
  );

  it(
    "the sign-in email's link, asked for in the auth modal of an article, opens that article with the modal, and signs in only when the reader presses the button",
    async () => {
      const email = await reader();
      const asking = await open(STORY());
      await asking.locator('button.signin').click();
      const askingDialog = asking.locator('gatehouse-auth-modal dialog');
      await askingDialog.waitFor({ state: 'visible' });
      await askingDialog.locator('[part="code-link"]').click();
      await askingDialog.getByLabel('Email').fill(email);
      await askingDialog.locator('[part="primary-button"]').click();
      await eventually(async () => ((await text(askingDialog.locator('[part="heading"]'))) === 'Check your inbox' ? true : undefined), 30_000);
      const link = linkIn((await mailOf(email, 'login_code')).text, 'login_code');
      // Back to the article the reader asked from: port, path and query kept.
      expect(link.url).toBe(`${STORY()}#gatehouse-login=${link.token}`);
      await asking.close();

      const since = requests.length;
      const page = await open(link.url);
      const dialog = page.locator('gatehouse-auth-modal dialog');
      await dialog.waitFor({ state: 'visible', timeout: 30_000 });
      const button = dialog.locator('[part="primary-button"]');
      await expect(text(button)).resolves.toBe('Sign me in');
      await expect(focused(page)).resolves.toBe('button(primary-button)');
      expect(page.url()).toBe(STORY());
      expect(requests.slice(since).some((r) => r.url().includes('/login-code/link'))).toBe(false);
      expect(await storedEmail(page)).toBeNull();
      await browser.screenshot(page, 'account-email-link-confirm');

      await button.click();
      // Signed in on the article, and told so before going on reading.
      await eventually(async () => ((await text(dialog.locator('[part="description"]'))) === `You are signed in as ${email}.` ? true : undefined), 30_000);
      await expect(focused(page)).resolves.toBe('p(description)');
      expect(await storedEmail(page)).toBe(email);
      expect(await seen(page)).toEqual([`signed in as ${email}`, 'login']);
      await browser.screenshot(page, 'account-email-link-signed-in');
      await dialog.locator('[part="primary-button"]').click();
      await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
      expect(await seen(page)).toEqual([`signed in as ${email}`, 'login', 'close']);
      expect(page.url()).toBe(STORY());
      await page.evaluate(() => (globalThis as any).gatehouse.logout());
      await page.close();
    },
    4 * LONG,
  );

  it(
    'the verification link of the email sent on registering in the register form opens that page, which confirms the address on the button only',
    async () => {
      const email = `reader-${randomUUID().slice(0, 8)}@example.com`;
      const joining = await open(JOIN());
      const register = joining.locator('gatehouse-register-form');
      await register.getByLabel('Name').fill('Ada Reader');
      await register.getByLabel('Email').fill(email);
      await register.getByLabel('Password').fill(PASSWORD);
      await register.locator('[part="primary-button"]').click();
      await eventually(async () => ((await storedEmail(joining)) === email ? true : undefined), 30_000);
      const link = linkIn((await mailOf(email, 'email_verification')).text, 'email_verification');
      expect(link.url).toBe(`${JOIN()}#gatehouse-verify-email=${link.token}`);
      await joining.close();

      // The page has a register form only: an auth modal takes up the link.
      const page = await open(link.url);
      const dialog = page.locator('gatehouse-auth-modal dialog');
      await dialog.waitFor({ state: 'visible', timeout: 30_000 });
      await expect(text(dialog.locator('[part="heading"]'))).resolves.toBe('Confirm your email address');
      expect(page.url()).toBe(JOIN());
      expect((await login(email, PASSWORD)).body.customer.emailVerified).toBe(false);

      await dialog.locator('[part="primary-button"]').click();
      await eventually(async () => ((await text(dialog.locator('[part="description"]'))) === 'Thank you: your email address is confirmed.' ? true : undefined), 30_000);
      await expect(focused(page)).resolves.toBe('p(description)');
      expect(await seriousViolations(page)).toEqual([]);
      await browser.screenshot(page, 'account-email-verified');
      expect((await login(email, PASSWORD)).body.customer.emailVerified).toBe(true);
      await page.evaluate(() => (globalThis as any).gatehouse.logout());
      await page.close();
    },
    4 * LONG,
  );
});
