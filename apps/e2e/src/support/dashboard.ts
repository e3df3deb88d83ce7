import { eventually, launchBrowser, type TestBrowser } from '@gatehouse/testing';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './processes';
import { TestSystem } from './test-system';

export const DASHBOARD_DIR = resolve(ROOT, 'dist/apps/dashboard');

/**
 * What the dashboard talks to: admin, access, branding and webhooks-out as their own applications
 * over the real NATS and PostgreSQL, and the gateway in front serving the built dashboard at
 * /dashboard (the system's `url`), as `npm start` does.
 */
export type DashboardSystem = TestSystem;
export const DashboardSystem = {
  /** `billing`: also billing (the stats view asks it), at `processorUrl` (a local fake) when given; `customers`: also identity, which keeps them. */
  start(options: { billing?: boolean; customers?: boolean; processorUrl?: string } = {}): Promise<DashboardSystem> {
    if (!existsSync(resolve(DASHBOARD_DIR, 'index.html'))) throw new Error(`the dashboard is not built: run npm run build:web (looked in ${DASHBOARD_DIR})`);
    return TestSystem.boot({
      name: 'dash',
      services: ['admin', 'access', 'branding', 'webhooks-out', ...(options.billing ? (['billing'] as const) : []), ...(options.customers ? (['identity'] as const) : [])],
      publication: { name: 'Dashboard Daily', domains: ['daily.example', '*.daily.example'] },
      env: { billing: options.processorUrl ? { PROCESSOR_API_URL: options.processorUrl } : {}, gateway: { DASHBOARD_DIR } },
      home: '/dashboard',
      // The tests sign in themselves, in the browser or with `sessionOf`.
      login: false,
    });
  },
};

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
