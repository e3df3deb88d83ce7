// Browser code runs inside page.evaluate: the DOM types are needed here.
/// <reference lib="dom" />
import { BRANDING_DEFAULTS, type BrandingChanges } from '@gatehouse/contracts';
import { eventually, launchBareBrowser, SCREENSHOT_DIR } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { LocalStart } from '../support/local-start';
import { querySchema } from '../support/system';

const LONG = 120_000;
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32"><rect width="120" height="32" rx="6" fill="#0b3d91"/><text x="10" y="22" font-size="16" fill="#fff" font-family="sans-serif">Gazette</text></svg>`;

const TAGS = ['login-form', 'register-form', 'auth-modal', 'paywall-modal', 'inline-paywall', 'sticky-bar', 'content-lock'] as const;
type Tag = (typeof TAGS)[number];
const COPY = ['authHeading', 'authDescription', 'authRegisterHeading', 'authRegisterDescription', 'paywallHeading', 'paywallDescription', 'paywallCtaText'] as const;
/** Every field unset, generic mode. */
const BLANK: BrandingChanges = BRANDING_DEFAULTS;

/** An element as a page would carry it: the paywalls in preview (a hard paywall's offer with the price the page names), the modals open. */
function markup(tag: Tag, attributes = ''): string {
  const prices = `prices='[{"id":"price_demo","currency":"usd","unitAmount":500,"interval":"month","productName":"Digital"}]'`;
  const extra: Record<Tag, string> = {
    'login-form': '',
    'register-form': '',
    'auth-modal': 'open',
    'paywall-modal': `preview="hard" ${prices}`,
    'inline-paywall': `preview="hard" ${prices}`,
    'sticky-bar': `preview="hard" ${prices}`,
    'content-lock': `preview="hard" ${prices}`,
  };
  return `<gatehouse-${tag} ${extra[tag]} ${attributes}>${tag === 'content-lock' ? '<p>Locked words.</p>' : ''}</gatehouse-${tag}>`;
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

/*
 * The web components on a publisher's page in Debian's Chromium, against `npm start` (spec 8.1,
 * decisions J2): every tag renders, the theme's precedence, one branding request per page, the
 * copy mapping, readable at 320 px and right to left, and no serious axe-core violation.
 */
describe('the web components', () => {
  let local: LocalStart;
  let browser: Browser;
  let session: string;
  let publishableKey: string;
  /** The publisher's site: one of the bootstrap publication's domains (127.0.0.1), another origin than the gateway (localhost). */
  let site: Server;
  let siteUrl: string;
  /** Each page's HTML by path. */
  const pages = new Map<string, string>();

  beforeAll(async () => {
    site = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (path === '/logo.svg') return void res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end(LOGO);
      const html = pages.get(path);
      if (html === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);
    });
    await new Promise<void>((ready) => site.listen(0, '127.0.0.1', ready));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    local = await LocalStart.start({ database: 'test', env: { BCRYPT_COST: '4' } });
    session = await local.sessionOf();
    publishableKey = (await local.api('/admin/api-keys', { session, body: { name: 'elements-tests' } })).body.publishableKey;
    browser = await launchBareBrowser();
  }, LONG);

  afterAll(async () => {
    await browser?.close();
    site?.close();
    await local?.close();
  }, LONG);

  async function brand(changes: BrandingChanges): Promise<void> {
    const answer = await local.api('/branding/admin', { method: 'PUT', session, body: { ...BLANK, ...changes } });
    expect(answer.status).toBe(200);
  }

  interface Opened {
    page: Page;
    /** Requests of the page for the branding configuration. */
    brandingRequests: string[];
    /** Every request the page made. */
    requests: string[];
  }

  /** A page of the publisher's site in a fresh browser context (no HTTP cache), once every element has rendered with the fetched branding. */
  async function open(body: string, options: { lang?: string; dir?: string; width?: number; prepare?: (page: Page) => Promise<unknown> } = {}): Promise<Opened> {
    const context = await browser.newContext({ viewport: { width: options.width ?? 1024, height: 768 } });
    const brandingRequests: string[] = [];
    const requests: string[] = [];
    context.on('request', (request) => {
      requests.push(request.url());
      if (new URL(request.url()).pathname === '/api/v1/branding') brandingRequests.push(request.url());
    });
    const path = `/article-${pages.size}`;
    pages.set(
      path,
      `<!doctype html><html lang="${options.lang ?? 'en'}" dir="${options.dir ?? 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Elements</title>
<script src="${local.url}/sdk/v1/gatehouse.js" data-publishable-key="${publishableKey}" data-auto-check-access="false" async></script>
<script src="${local.url}/sdk/v1/elements.js" async></script>
<style>body { margin: 16px; font-family: serif; } .row { margin: 24px 0; }</style></head><body><main>${body}</main></body></html>`,
    );
    const page = await context.newPage();
    await options.prepare?.(page);
    await page.goto(`${siteUrl}${path}`);
    await page.waitForFunction(() => typeof (globalThis as any).gatehouse?.getBranding === 'function' && customElements.get('gatehouse-content-lock') !== undefined, undefined, { timeout: 30_000 });
    await page.evaluate(async () => {
      await (globalThis as any).gatehouse.getBranding().catch(() => undefined);
      for (let round = 0; round < 3; round++) {
        await new Promise((done) => setTimeout(done, 20));
        for (const element of document.querySelectorAll('*')) await (element as any).updateComplete;
      }
    });
    await page.mouse.move(0, 0);
    return { page, brandingRequests, requests };
  }

  async function seriousViolations(page: Page): Promise<unknown[]> {
    await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => (await (globalThis as any).axe.run(document, { resultTypes: ['violations'] })).violations);
    return violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => `${JSON.stringify(n.target)} ${n.failureSummary}`) }));
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }

  it("keeps custom CSS inside the component: the page's own button stays clickable and nothing is fetched from another site", async () => {
    const hostile =
      ':host{position:fixed;inset:0;z-index:2147483647;background:url(https://tracker.example/pixel.png)} .root{position:fixed;inset:0} [part="primary-button"]{border-style:dashed}';
    const refused = await local.api('/branding/admin', { method: 'PUT', session, body: { ...BLANK, brandingMode: 'custom', customCss: hostile } });
    expect(refused.body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'customCss' }] });
    // As a version before the check stored it.
    await brand({ brandingMode: 'custom' });
    await querySchema(local.databaseUrl, 'branding', 'UPDATE branding_configurations SET custom_css = $1', [hostile]);
    const { page, requests } = await open(`<p><button id="own" type="button" onclick="this.textContent = 'Clicked'">The page's own button</button></p>${markup('inline-paywall')}`);
    // What the CSS may do still applies inside the component.
    expect(await page.locator('gatehouse-inline-paywall [part="primary-button"]').evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('dashed');
    expect(await page.locator('gatehouse-inline-paywall').evaluate((el) => getComputedStyle(el).position)).toBe('static');
    await page.locator('#own').click({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Clicked' }).waitFor();
    await screenshot(page, 'elements-custom-css-confined');
    expect(requests.filter((url) => !['127.0.0.1', 'localhost'].includes(new URL(url).hostname))).toEqual([]);
    await page.context().close();
    await brand({});
  }, LONG);

  describe('precedence of the theme, highest first: attribute, fetched configuration, CSS property, default', () => {
    const layers = {
      attribute: { primary: '#123456', primaryHover: '#0b2239', radius: '16px', font: 'monospace' },
      fetched: { primary: '#b00020', primaryHover: '#7a0016', radius: '2px', font: 'serif' },
      css: { primary: '#0a7d32', primaryHover: '#075a24', radius: '12px', font: 'cursive' },
      default: { primary: '#6C5CE7', primaryHover: '#5A4BD1', radius: '8px', font: 'system-ui' },
    };
    type Property = keyof (typeof layers)['default'];
    const attributes = `brand-color="${layers.attribute.primary}" brand-color-hover="${layers.attribute.primaryHover}" border-radius="16" font-family="monospace"`;
    const cssProperties = `--gatehouse-primary: ${layers.css.primary}; --gatehouse-primary-hover: ${layers.css.primaryHover}; --gatehouse-radius: ${layers.css.radius}; --gatehouse-font: ${layers.css.font}`;
    /** What each of the four elements of a page (attribute on/off × CSS property on an ancestor on/off) resolved, per property. */
    const measured = new Map<string, Record<Property, string>>();

    beforeAll(async () => {
      for (const fetched of [true, false]) {
        // Not fetched: the same values saved, in generic mode, where the configuration does not apply (J2).
        await brand({ brandingMode: fetched ? 'themed' : 'generic', brandColor: layers.fetched.primary, brandColorHover: layers.fetched.primaryHover, borderRadius: '2', fontFamily: 'serif' });
        const combos = [
          [true, true],
          [true, false],
          [false, true],
          [false, false],
        ];
        const body = combos
          .map(([attr, css]) => `<div class="row" style="${css ? cssProperties : ''}">${markup('login-form', `id="a${+attr}c${+css}" ${attr ? attributes : ''}`)}</div>`)
          .join('');
        const { page } = await open(body);
        for (const [attr, css] of combos) {
          const button = page.locator(`#a${+attr}c${+css} [part="primary-button"]`);
          const style = () => button.evaluate((el) => ({ bg: getComputedStyle(el).backgroundColor, radius: getComputedStyle(el).borderTopLeftRadius, font: getComputedStyle(el).fontFamily }));
          const resting = await style();
          await button.hover();
          const hovered = await style();
          await page.mouse.move(0, 0);
          measured.set(`${attr}/${fetched}/${css}`, { primary: resting.bg, primaryHover: hovered.bg, radius: resting.radius, font: resting.font.replace(/"/g, '') });
        }
        await page.context().close();
      }
    }, LONG);

    const rows: Array<[Property, boolean, boolean, boolean]> = [];
    for (const property of ['primary', 'primaryHover', 'radius', 'font'] as Property[])
      for (const attr of [true, false]) for (const fetched of [true, false]) for (const css of [true, false]) rows.push([property, attr, fetched, css]);

    it.each(rows)('%s with attribute %s, fetched %s, CSS property %s', (property, attr, fetched, css) => {
      const winner = attr ? 'attribute' : fetched ? 'fetched' : css ? 'css' : 'default';
      const expected = layers[winner][property];
      const actual = measured.get(`${attr}/${fetched}/${css}`)?.[property];
      expect(actual).toBe(property === 'primary' || property === 'primaryHover' ? rgb(expected) : expected);
    });
  });

  describe.each([
    ['default', BLANK],
    [
      'branded',
      {
        brandingMode: 'custom',
        brandColor: '#ffd400',
        borderRadius: '16',
        fontFamily: 'Georgia, serif',
        customCss: '[part~="heading"] { text-transform: uppercase; letter-spacing: 0.04em; }',
        ...Object.fromEntries(COPY.map((field) => [field, `Branded ${field}`])),
      },
    ],
  ] as Array<[string, BrandingChanges]>)('each element, %s', (theme, changes) => {
    beforeAll(() => brand(theme === 'branded' ? { ...changes, logoUrl: `${siteUrl}/logo.svg` } : changes));

    it.each(TAGS.map((tag) => [tag]))('<gatehouse-%s> renders with one branding request, no serious axe violation, and leaves a screenshot', async (tag) => {
      const { page, brandingRequests } = await open(`<h1>An article</h1><p>Some words.</p>${markup(tag)}`);
      const element = page.locator(`gatehouse-${tag}`);
      await expect(element.locator('[part~="heading"]').first().textContent()).resolves.toMatch(/\S/);
      await expect(element.locator('[part~="primary-button"]').first().isVisible()).resolves.toBe(true);
      expect(brandingRequests).toHaveLength(1);
      const button = await element.locator('[part~="primary-button"]').first().evaluate((el) => ({ bg: getComputedStyle(el).backgroundColor, color: getComputedStyle(el).color, radius: getComputedStyle(el).borderTopLeftRadius, font: getComputedStyle(el).fontFamily }));
      if (theme === 'default') {
        expect(button).toEqual({ bg: 'rgb(108, 92, 231)', color: 'rgb(255, 255, 255)', radius: '8px', font: 'system-ui' });
      } else {
        // Yellow: black text reads better than white (WCAG AA picked automatically).
        expect(button).toEqual({ bg: 'rgb(255, 212, 0)', color: 'rgb(0, 0, 0)', radius: '16px', font: 'Georgia, serif' });
        await expect(element.locator('[part~="heading"]').first().evaluate((el) => getComputedStyle(el).textTransform)).resolves.toBe('uppercase');
        await expect(element.locator('[part~="logo"]').first().getAttribute('src')).resolves.toBe(`${siteUrl}/logo.svg`);
      }
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `element-${tag}-${theme}`);
      await page.context().close();
    }, LONG);
  });

  it('puts each copy field on exactly the elements spec 8.1 lists for it', async () => {
    await brand({ brandingMode: 'themed', ...Object.fromEntries(COPY.map((field) => [field, `copy:${field}`])) });
    const body = TAGS.map((tag) => markup(tag, `id="${tag}"`)).join('') + markup('auth-modal', 'id="auth-modal-register" mode="register"').replace(' open ', ' ');
    const { page, brandingRequests } = await open(body);
    expect(brandingRequests).toHaveLength(1);
    const shown = await page.evaluate(() => {
      const result: Record<string, string[]> = {};
      for (const element of document.querySelectorAll('main > *')) {
        const id = element.id === 'auth-modal-register' ? 'auth-modal' : element.id;
        const text = element.shadowRoot?.textContent ?? '';
        result[id] = [...new Set([...(result[id] ?? []), ...(text.match(/copy:\w+/g) ?? []).map((s) => s.slice(5))])].sort();
      }
      return result;
    });
    expect(shown).toEqual({
      'login-form': ['authDescription', 'authHeading'],
      'register-form': ['authRegisterDescription', 'authRegisterHeading'],
      'auth-modal': ['authDescription', 'authHeading', 'authRegisterDescription', 'authRegisterHeading'],
      'paywall-modal': ['paywallCtaText', 'paywallDescription', 'paywallHeading'],
      'inline-paywall': ['paywallCtaText', 'paywallDescription', 'paywallHeading'],
      'sticky-bar': ['paywallCtaText', 'paywallHeading'],
      'content-lock': ['paywallCtaText', 'paywallHeading'],
    });
    await page.context().close();
  }, LONG);

  it("offers a price with a trial in the reader's words and currency format: 14 days free, then the price a month", async () => {
    await brand({});
    const product = await local.api('/admin/products', { session, body: { name: 'Trial Digital' } });
    expect(product.status).toBe(201);
    const price = await local.api(`/admin/products/${product.body.id}/prices`, { session, body: { currency: 'eur', unitAmount: 600, interval: 'month', trialDays: 14, active: true } });
    expect(price.status).toBe(201);
    try {
      // The offer comes from the service's prices on sale (no `prices` attribute).
      for (const [lang, label] of [
        ['en-IE', '14 days free, then €6.00 a month'],
        ['de-DE', '14 Tage kostenlos, danach 6,00\u00a0€ im Monat'],
      ]) {
        const { page } = await open('<gatehouse-inline-paywall preview="hard"></gatehouse-inline-paywall>', { lang });
        const plan = page.locator('gatehouse-inline-paywall [part~="plan"]').filter({ hasText: 'Trial Digital' });
        await plan.waitFor({ timeout: 10_000 });
        await expect(plan.locator('strong').textContent()).resolves.toBe(label);
        if (lang === 'en-IE') await screenshot(page, 'element-offer-trial');
        await page.context().close();
      }
    } finally {
      await local.api(`/admin/prices/${price.body.id}`, { method: 'PATCH', session, body: { active: false } });
    }
  }, LONG);

  it.each([
    [
      'de',
      'ltr',
      {
        heading: 'Konto erstellen',
        email: 'E-Mail',
        password: 'Passwort',
        weak: 'Ihr Passwort muss 8 bis 72 Zeichen lang sein.',
        taken: 'Zu dieser E-Mail-Adresse gibt es schon ein Konto. Melden Sie sich stattdessen an.',
      },
    ],
    [
      'ar',
      'rtl',
      {
        heading: 'أنشئ حسابك',
        email: 'البريد الإلكتروني',
        password: 'كلمة المرور',
        weak: 'يجب أن تتكون كلمة المرور من 8 إلى 72 حرفًا.',
        taken: 'يوجد حساب بهذا البريد الإلكتروني بالفعل. سجّل الدخول بدلًا من ذلك.',
      },
    ],
  ])("speaks the page's language (%s, %s) from its first render, and puts the service's refusals in it beside the field they name", async (lang, dir, words) => {
    await brand({});
    // The table is held back until the element was seen waiting for it: no English shows first.
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    const tables: string[] = [];
    const prepare = (page: Page) =>
      page.route('**/sdk/v1/messages-*', async (route) => {
        tables.push(new URL(route.request().url()).pathname);
        await held;
        await route.continue();
      });
    let opening: Promise<Opened> | undefined;
    const pageReady = new Promise<Page>((resolve) => (opening = open('<gatehouse-register-form></gatehouse-register-form>', { lang, dir, prepare: async (page) => (resolve(page), prepare(page)) })));
    const page = await pageReady;
    await eventually(async () => (tables.length > 0 ? true : undefined), 30_000);
    await eventually(async () => ((await page.evaluate(() => customElements.get('gatehouse-register-form') !== undefined)) ? true : undefined), 10_000);
    expect(await page.evaluate(() => document.querySelector('gatehouse-register-form')?.shadowRoot?.textContent?.trim() ?? '')).toBe('');
    release();
    await opening;
    expect(tables).toEqual([expect.stringMatching(new RegExp(`^/sdk/v1/messages-${lang}\\.[0-9a-f]{12}\\.json$`))]);

    const form = page.locator('gatehouse-register-form');
    await expect(form.getByRole('heading').textContent()).resolves.toBe(words.heading);
    await expect(form.locator('[part~="container"]').getAttribute('dir')).resolves.toBe(dir);
    // A password the service refuses ("must be 8 to 72 bytes of UTF-8"): in the reader's words, beside the password.
    await form.locator('input[name="name"]').fill('Lea');
    await form.getByLabel(words.email).fill(`words-${lang}-${randomUUID()}@example.com`);
    await form.getByLabel(words.password).fill('kurz');
    await form.locator('[part~="primary-button"]').click();
    await eventually(async () => ((await form.locator('#password-error').textContent())?.trim() ? true : undefined), 30_000);
    await expect(form.locator('#password-error').textContent()).resolves.toBe(words.weak);
    await expect(form.getByLabel(words.password).getAttribute('aria-invalid')).resolves.toBe('true');
    // An email with an account already (409 `email_taken`): beside the email.
    const taken = `taken-${lang}-${randomUUID()}@example.com`;
    expect((await local.api('/auth/customers/register', { key: publishableKey, body: { email: taken, password: 'reader-password-1', name: 'First' } })).status).toBe(201);
    await form.getByLabel(words.email).fill(taken);
    await form.getByLabel(words.password).fill('reader-password-1');
    await form.locator('[part~="primary-button"]').click();
    await eventually(async () => ((await form.locator('#email-error').textContent())?.trim() ? true : undefined), 30_000);
    await expect(form.locator('#email-error').textContent()).resolves.toBe(words.taken);
    const text = await page.evaluate(() => document.querySelector('gatehouse-register-form')?.shadowRoot?.textContent ?? '');
    expect(text).not.toMatch(/bytes|UTF-8|already registered|must be/i);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `element-register-form-errors-${lang}`);
    await page.context().close();
  }, LONG);

  it('fits 320 px and lays out right to left in Arabic, with the Arabic message table', async () => {
    await brand({});
    for (const tag of TAGS) {
      const { page } = await open(`<h1>مقال</h1>${markup(tag)}`, { lang: 'ar', dir: 'rtl', width: 320 });
      const layout = await page.evaluate((name) => {
        const element = document.querySelector(`gatehouse-${name}`) as HTMLElement;
        const root = element.shadowRoot?.querySelector('[part~="container"]') as HTMLElement;
        const button = element.shadowRoot?.querySelector('[part~="primary-button"]') as HTMLElement;
        return { scrollWidth: document.documentElement.scrollWidth, dir: root.getAttribute('dir'), direction: getComputedStyle(button).direction, button: button.textContent?.trim(), buttonRight: button.getBoundingClientRect().right };
      }, tag);
      expect(layout.scrollWidth).toBeLessThanOrEqual(320);
      expect(layout.buttonRight).toBeLessThanOrEqual(320);
      expect(layout.dir).toBe('rtl');
      expect(layout.direction).toBe('rtl');
      expect(layout.button).toMatch(/[\u0600-\u06FF]/);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `element-${tag}-320px-rtl`);
      await page.context().close();
    }
  }, 3 * LONG);
});
