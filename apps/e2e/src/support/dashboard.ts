import { eventually, launchBrowser, type TestBrowser } from '@gatehouse/testing';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { WEBHOOK_SECRET, type FakeProcessorProcess } from './fake-processor';
import { ROOT } from './processes';
import { ADMIN, adminSession } from './staff';
import { TestSystem } from './test-system';

export const DASHBOARD_DIR = resolve(ROOT, 'dist/apps/dashboard');

/**
 * What the dashboard talks to: admin, access, branding and webhooks-out as their own applications
 * over the real NATS and PostgreSQL, and the gateway in front serving the built dashboard at
 * /dashboard, as `npm start` does.
 */
export class DashboardSystem extends TestSystem {
  /** `billing`: also billing (the stats view asks it), at `processorUrl` (a local fake) when given; `customers`: also identity, which keeps them. */
  static start(options: { billing?: boolean; customers?: boolean; processorUrl?: string } = {}): Promise<DashboardSystem> {
    if (!existsSync(resolve(DASHBOARD_DIR, 'index.html'))) throw new Error(`the dashboard is not built: run npm run build:web (looked in ${DASHBOARD_DIR})`);
    return this.boot({
      name: 'dash',
      services: ['admin', 'access', 'branding', 'webhooks-out', ...(options.billing ? (['billing'] as const) : []), ...(options.customers ? (['identity'] as const) : [])],
      publication: { name: 'Dashboard Daily', domains: ['daily.example', '*.daily.example'] },
      env: { billing: options.processorUrl ? { PROCESSOR_API_URL: options.processorUrl } : {}, gateway: { DASHBOARD_DIR } },
      // The tests sign in themselves, in the browser or with `sessionOf`.
      login: false,
    });
  }

  /** The dashboard's address: the gateway's /dashboard. */
  override get url(): string {
    return `${this.gateway.url}/dashboard`;
  }

  /**
   * A checkout the customer pays at the local fake processor, whose events are then delivered signed
   * as the processor would (the processor connected with WEBHOOK_SECRET supplied): a conversion,
   * counted for the experiment variant it carries.
   */
  async paidCheckout(
    fake: FakeProcessorProcess,
    secretKey: string,
    publicationId: string,
    body: { customerId: string; priceId: string; experimentId?: string; variantId?: string; paywallId?: string },
  ): Promise<void> {
    const started = await this.api('/subscriptions/checkout', { key: secretKey, body: { successUrl: 'https://daily.example/thanks', cancelUrl: 'https://daily.example/pricing', ...body } });
    if (started.status !== 201) throw new Error(`checkout: ${started.status} ${JSON.stringify(started.body)}`);
    const paid = await fake.completeCheckout(started.body.sessionId);
    for (const event of paid.events) {
      const answer = await fake.deliver(`${this.gateway.url}/api/v1/webhooks/processor?publication=${publicationId}`, WEBHOOK_SECRET, event);
      if (answer.status !== 200) throw new Error(`delivering ${event.type}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  }

  /** A staff member's session cookie (ADMIN's unless given), signed in through the gateway as the dashboard does. */
  async sessionOf(account: { email: string; password: string } = ADMIN): Promise<string> {
    return (await adminSession(this.gateway.url, account)).session;
  }

  /**
   * Something on every screen, made through the API as the owner: a key pair, a segment, a paywall
   * with an experiment, a product with a price, a customer, a webhook (needs `billing` and `customers`).
   */
  async seedEveryScreen(): Promise<void> {
    const session = await this.sessionOf();
    const made = async (path: string, body: unknown) => {
      const answer = await this.api(path, { session, body });
      if (answer.status !== 201) throw new Error(`seeding ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    await made('/admin/api-keys', { name: 'website' });
    const segment = await made('/admin/segments', { name: 'Mobile readers', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] });
    const paywall = await made('/admin/paywalls', { name: 'Premium', type: 'metered', config: { limit: 3, period: 'month' }, match: { include: ['/premium/**'], exclude: [] }, segmentId: segment.id });
    await made('/admin/experiments', { name: 'Button copy', paywallId: paywall.id, variants: [{ name: 'A', weight: 50 }, { name: 'B', weight: 50, overrides: { copy: { ctaText: 'Join now' } } }] });
    const product = await made('/admin/products', { name: 'Digital', entitlements: [] });
    await made(`/admin/products/${product.id}/prices`, { currency: 'eur', unitAmount: 900, interval: 'month', trialDays: 14 });
    await made('/customers', { email: 'reader@daily.example', name: 'Rea Reader' });
    await made('/admin/webhooks', { url: 'http://127.0.0.1:9/hooks/gatehouse', events: ['subscription.created', 'subscription.cancelled'] });
  }

  /** Reads or changes admin's schema directly, e.g. to let a session run out. */
  adminSql<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.querySchema<T>('admin', text, params);
  }
}

/** A staff member's browser on the dashboard. */
export async function staffBrowser(): Promise<TestBrowser> {
  return launchBrowser();
}

/** Signs in on the dashboard at `system.url` (a DashboardSystem, or `npm start`'s) and waits for its home screen. */
export async function signIn(page: Page, system: { url: string }, account: { email: string; password: string }): Promise<void> {
  await page.goto(`${system.url}/sign-in`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Areas' }).waitFor();
}

/** Every loading state on the page has settled (to content, or to its error where the system lacks a service). */
export async function settled(page: Page): Promise<void> {
  await eventually(async () => ((await page.getByRole('status').filter({ hasText: 'Loading' }).count()) === 0 ? true : undefined), 30_000);
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** axe-core run on the page as it is; answers the serious and critical violations. */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated rather than added as a script tag: the dashboard's CSP rightly refuses inline scripts.
  await page.evaluate(`${AXE_SOURCE};undefined`);
  // Evaluated in the page (this file is type-checked without the DOM library).
  const violations: AxeViolation[] = await page.evaluate(`axe.run(document).then((result) =>
    result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((n) => ({ target: n.target })) })))`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The focused element's label, aria-label or text, evaluated in the page. */
const FOCUSED_NAME = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return '';
  const label = el.getAttribute('aria-label') ?? (el.id ? document.querySelector('label[for="' + el.id + '"]')?.textContent : null);
  return (label ?? el.textContent ?? '').trim();
})()`;

/** Presses Tab until the element matching `name` (accessible name of the focused element) has focus; fails after `limit` presses. */
export async function tabTo(page: Page, name: RegExp, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const focused: string = await page.evaluate(FOCUSED_NAME);
    if (name.test(focused)) return;
  }
  throw new Error(`no element named ${name} reached with Tab`);
}

/**
 * Opens an editor from its link (`/dashboard/<screen>?edit=<id>`): it loads the item by id and shows
 * its name, axe finds nothing serious, and Escape closes it and drops the parameter.
 */
export async function openAndCloseEditorLink(page: Page, system: DashboardSystem, screen: string, item: { id: string; name: string }): Promise<void> {
  await page.goto(`${system.url}/${screen}?edit=${item.id}`);
  const dialog = page.getByRole('dialog', { name: `Edit ${item.name}` });
  await eventually(async () => ((await dialog.getByLabel('Name', { exact: true }).inputValue()) === item.name ? true : undefined));
  const violations = await seriousAccessibilityViolations(page);
  if (violations.length > 0) throw new Error(`axe: ${JSON.stringify(violations)}`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  if (new URL(page.url()).search !== '') throw new Error(`the link stayed: ${page.url()}`);
}
