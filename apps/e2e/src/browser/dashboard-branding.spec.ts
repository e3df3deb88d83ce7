import { eventually, type TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: branding studio', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let publishableKey = '';
  let session = '';
  const publicBranding = () => system.api('/branding', { key: publishableKey });
  /** One of the real web components in the preview (Playwright's locators pierce their shadow DOM). */
  const element = (tag: 'login-form' | 'inline-paywall' | 'sticky-bar') => page.getByTestId('branding-preview').locator(`gatehouse-${tag}`);
  const primaryButton = (tag: 'login-form' | 'inline-paywall' = 'login-form') => element(tag).locator('[part="primary-button"]');
  // Runs in the page; this file is type-checked without the DOM library, hence globalThis.
  const style = (property: string, tag?: 'login-form' | 'inline-paywall'): Promise<string> =>
    primaryButton(tag).evaluate((el, name) => (globalThis as any).getComputedStyle(el).getPropertyValue(name) as string, property);

  beforeAll(async () => {
    system = await DashboardSystem.start({ billing: true });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    const product = await system.api('/admin/products', { session, body: { name: 'Digital' } });
    expect(product.status).toBe(201);
    expect((await system.api(`/admin/products/${product.body.id}/prices`, { session, body: { currency: 'eur', unitAmount: 900, interval: 'month', active: true } })).status).toBe(201);
    publishableKey = (await system.api('/admin/api-keys', { session, body: { name: 'site' } })).body.publishableKey;
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Branding' }).click();
    await page.getByRole('heading', { name: 'Preview' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('changes the preview as the fields change, before anything is saved', async () => {
    await page.locator('[data-testid="branding-preview"][data-elements="ready"]').waitFor();
    expect(await style('background-color')).toBe('rgb(108, 92, 231)');
    // The paywalls show their offer without an access result (preview="hard"), with the default copy.
    await element('inline-paywall').getByRole('heading', { name: 'Subscribe to keep reading' }).waitFor();
    expect(await style('background-color', 'inline-paywall')).toBe('rgb(108, 92, 231)');
    // The publication's prices on sale, as readers are offered them.
    await element('inline-paywall').getByRole('radio', { name: /Digital.*€9\.00/ }).waitFor();
    expect(await element('sticky-bar').getByRole('combobox').textContent()).toMatch(/Digital · €9\.00/);

    await page.getByRole('radio', { name: /^Themed/ }).check();
    await page.getByLabel('Brand colour', { exact: true }).fill('#0055aa');
    await page.getByRole('button', { name: 'Large' }).click();
    await page.getByLabel('Font family').fill('Georgia, serif');
    await page.getByLabel('Paywall heading').fill('Members read on');
    await page.getByLabel('Paywall button text').fill('Become a member of the Dashboard Daily today');
    await page.getByLabel('Newsletter: heading').fill('The Daily Briefing, free every morning');

    await page.getByText('44 / 24 characters — 20 over the advised length (allowed)').waitFor();
    expect(await style('background-color')).toBe('rgb(0, 85, 170)');
    expect(await style('border-top-left-radius')).toBe('16px');
    expect(await style('font-family')).toContain('Georgia');
    await element('inline-paywall').getByRole('heading', { name: 'Members read on' }).waitFor();
    await element('sticky-bar').getByRole('heading', { name: 'Members read on' }).waitFor();
    expect(await primaryButton('inline-paywall').textContent()).toBe('Become a member of the Dashboard Daily today');
    expect(await style('background-color', 'inline-paywall')).toBe('rgb(0, 85, 170)');
    expect(await style('border-top-left-radius', 'inline-paywall')).toBe('16px');
    expect(await style('font-family', 'inline-paywall')).toContain('Georgia');
    // In the flow of the preview, not fixed over the dashboard's window.
    expect(await element('sticky-bar').locator('.bar').evaluate((el) => (globalThis as any).getComputedStyle(el).position)).toBe('relative');
    await page.getByText('Left empty: #003b77, 10 % darker.').waitFor();
    expect(await page.getByRole('slider').getAttribute('aria-valuenow')).toBe('16');

    // Not saved yet: readers still get the generic design.
    expect((await publicBranding()).body).toMatchObject({ brandingMode: 'generic', brandColor: null });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-branding-preview');
  });

  it('saves, past the soft limits, and GET /api/v1/branding returns it with the derived hover colour', async () => {
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Branding saved.', { exact: false }).waitFor();
    expect((await publicBranding()).body).toMatchObject({
      brandingMode: 'themed',
      brandColor: '#0055aa',
      brandColorHover: '#003b77',
      borderRadius: '16',
      fontFamily: 'Georgia, serif',
      paywallHeading: 'Members read on',
      paywallCtaText: 'Become a member of the Dashboard Daily today',
      newsletterHeading: 'The Daily Briefing, free every morning',
      softHeading: null,
      customCss: null,
    });
    await browser.screenshot(page, 'dashboard-branding-saved');
  });

  it('moves the radius with the keyboard on the slider', async () => {
    await page.getByRole('slider').focus();
    await page.keyboard.press('End');
    expect(await page.getByRole('slider').getAttribute('aria-valuenow')).toBe('24');
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByRole('slider').getAttribute('aria-valuenow')).toBe('23');
    expect(await style('border-top-left-radius')).toBe('23px');
  });

  it('says so, and keeps the other change, when someone else saved meanwhile', async () => {
    const theirs = await system.api('/branding/admin', { method: 'PUT', session, body: { paywallHeading: 'Changed by a colleague' } });
    expect(theirs.status).toBe(200);
    await page.getByLabel('Paywall heading').fill('My late change');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByRole('alert').filter({ hasText: 'Someone else changed the branding since you opened it.' }).waitFor();
    expect((await publicBranding()).body.paywallHeading).toBe('Changed by a colleague');
    await browser.screenshot(page, 'dashboard-branding-conflict');

    await page.getByRole('button', { name: 'Load their version' }).click();
    await eventually(async () => ((await page.getByLabel('Paywall heading').inputValue()) === 'Changed by a colleague' ? true : undefined));
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Branding saved.', { exact: false }).waitFor();
  });
  it("previews custom CSS on the real components, and refuses CSS that escapes them with the reason on the field", async () => {
    await page.getByRole('radio', { name: /^Custom/ }).check();
    await page.getByRole('textbox', { name: 'CSS inside every component' }).fill('[part="primary-button"] { border: 3px dashed rgb(200, 0, 0); }');
    await eventually(async () => ((await style('border-top-style', 'inline-paywall')) === 'dashed' ? true : undefined));
    expect(await style('border-top-color')).toBe('rgb(200, 0, 0)');
    await browser.screenshot(page, 'dashboard-branding-custom-css');

    await page.getByRole('textbox', { name: 'CSS inside every component' }).fill(':host { position: fixed; inset: 0; z-index: 99999; background: url(https://tracker.example/p.png) }');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText("inset on :host moves the component's own box", { exact: false }).waitFor();
    expect((await publicBranding()).body.customCss).toBeNull();
  });
});
