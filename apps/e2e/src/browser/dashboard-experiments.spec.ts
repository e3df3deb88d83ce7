import { eventually, type TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { sessionFrom } from '../support/http';
import { DashboardSystem, OWNER, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';

jest.setTimeout(120_000);

describe('dashboard: experiments', () => {
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';
  let publishableKey = '';
  let paywallId = '';

  beforeAll(async () => {
    system = await DashboardSystem.start({ billing: true });
    session = sessionFrom(await system.api('/admin/session', { body: OWNER }));
    publishableKey = (await system.api('/admin/api-keys', { session, body: { name: 'site' } })).body.publishableKey;
    paywallId = (await system.api('/admin/paywalls', { session, body: { name: 'Premium prompt', type: 'soft', match: { include: ['/**'] } } })).body.id;
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Experiments' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('creates an experiment with weighted variants, saying as you type that the weights must add up to 100', async () => {
    await page.getByRole('button', { name: 'Create your first experiment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New experiment' });
    await dialog.getByLabel('Name', { exact: true }).fill('Call to action wording');
    await dialog.getByLabel('Variant 1 weight').fill('60');
    await dialog.getByText('Weights add up to 110 % — they must add up to 100 (10 too many).').waitFor();
    await dialog.getByRole('button', { name: 'Create experiment' }).click();
    await dialog.getByText('The weights must add up to 100.').waitFor();
    await dialog.getByLabel('Variant 1 weight').fill('50');
    await dialog.getByText('Weights add up to 100 %.').waitFor();
    await dialog.getByLabel('Variant 2 button text').fill('Join now');
    await dialog.getByLabel('Variant 2 presentation').selectOption('sticky_bar');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create experiment' }).click();

    const card = page.getByRole('region', { name: 'Call to action wording' });
    await card.getByText('draft').waitFor();
    await card.getByText('Variants: A (50 %), B (50 %).', { exact: false }).waitFor();
    const [stored] = (await system.api('/admin/experiments', { session })).body.items;
    expect(stored).toMatchObject({ paywallId, status: 'draft', variants: [{ name: 'A', weight: 50 }, { name: 'B', weight: 50, overrides: { presentation: 'sticky_bar', copy: { ctaText: 'Join now' } } }] });
  });

  it('starts it, shows the impressions produced through the API as the stats API counts them, and stops it', async () => {
    const card = page.getByRole('region', { name: 'Call to action wording' });
    await card.getByRole('button', { name: 'Start' }).click();
    await card.getByText('running').waitFor();
    const [experiment] = (await system.api('/admin/experiments', { session })).body.items;
    const [a, b] = experiment.variants;
    const shown = (variantId: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: 'paywall_shown', url: 'https://daily.example/story', userId: `${variantId}-${i}`, paywallId, experimentId: experiment.id, variantId }));
    const sent = await system.api('/events', { key: publishableKey, body: { events: [...shown(a.id, 12), ...shown(b.id, 7)] } });
    expect(sent.status).toBe(202);

    const stats = await eventually(async () => {
      const answer = await system.api(`/admin/stats?from=${encodeURIComponent(experiment.startedAt)}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}&interval=day`, { session });
      const counted = answer.body.variants?.filter((v: { experimentId: string }) => v.experimentId === experiment.id) ?? [];
      return counted.reduce((sum: number, v: { shown: number }) => sum + v.shown, 0) === 19 ? counted : undefined;
    }, 20_000);
    await page.reload();
    const table = card.getByRole('table', { name: 'Results of Call to action wording' });
    for (const variant of [a, b]) {
      const figures = stats.find((v: { variantId: string }) => v.variantId === variant.id);
      const row = table.getByRole('row', { name: new RegExp(`^${variant.name} `) });
      await row.getByRole('cell', { name: String(figures.shown), exact: true }).waitFor();
      expect(figures.checkouts).toBe(0);
    }
    await table.getByRole('row', { name: /^B / }).getByText('not enough data yet').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-experiments-results');

    await card.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Stop experiment' }).click();
    await card.getByText('stopped').waitFor();
  });
});
