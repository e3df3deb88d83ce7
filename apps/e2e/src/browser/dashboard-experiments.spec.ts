import { eventually, type TestBrowser } from '@gatehouse/testing';
import type { Page } from 'playwright-core';
import { FakeProcessorProcess, SECRET_KEY, WEBHOOK_SECRET } from '../support/billing';
import { sessionFrom } from '../support/http';
import { DashboardSystem, seriousAccessibilityViolations, signIn, staffBrowser } from '../support/dashboard';
import { ADMIN as OWNER } from '../support/staff';

jest.setTimeout(120_000);

describe('dashboard: experiments', () => {
  let fake: FakeProcessorProcess;
  let system: DashboardSystem;
  let browser: TestBrowser;
  let page: Page;
  let session = '';
  let publishableKey = '';
  let secretKey = '';
  let publicationId = '';
  let priceId = '';
  let paywallId = '';

  beforeAll(async () => {
    fake = await FakeProcessorProcess.spawn();
    system = await DashboardSystem.start({ billing: true, customers: true, processorUrl: fake.url });
    const signedIn = await system.api('/admin/session', { body: OWNER });
    session = sessionFrom(signedIn);
    publicationId = signedIn.body.publication.id;
    ({ publishableKey, secretKey } = (await system.api('/admin/api-keys', { session, body: { name: 'site' } })).body);
    expect((await system.api('/admin/processor', { method: 'PUT', session, body: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } })).status).toBe(200);
    const product = (await system.api('/admin/products', { session, body: { name: 'Digital' } })).body;
    priceId = (await system.api(`/admin/products/${product.id}/prices`, { session, body: { currency: 'eur', unitAmount: 900, interval: 'month', trialDays: 0 } })).body.id;
    paywallId = (await system.api('/admin/paywalls', { session, body: { name: 'Premium prompt', type: 'soft', match: { include: ['/**'] } } })).body.id;
    browser = await staffBrowser();
    page = await browser.newPage();
    await signIn(page, system, OWNER);
    await page.getByRole('link', { name: 'Experiments' }).click();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
    await fake?.close();
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

  it('edits the draft by id: its name and a variant change, the variants stay the same ones', async () => {
    const [before] = (await system.api('/admin/experiments', { session })).body.items;
    await page.getByRole('button', { name: 'Edit Call to action wording' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Call to action wording' });
    await dialog.getByLabel('Name', { exact: true }).fill('Button wording');
    await dialog.getByLabel('Variant 2 button text').fill('Join us today');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save experiment' }).click();
    await page.getByRole('region', { name: 'Button wording' }).getByText('draft').waitFor();
    const after = (await system.api(`/admin/experiments/${before.id}`, { session })).body;
    expect(after).toMatchObject({ name: 'Button wording', status: 'draft', variants: [{ id: before.variants[0].id, name: 'A' }, { id: before.variants[1].id, name: 'B', overrides: { copy: { ctaText: 'Join us today' } } }] });
  });

  it('starts it, shows the impressions and conversions produced through the API as the stats API counts them, with the significance in words, and stops it', async () => {
    const card = page.getByRole('region', { name: 'Button wording' });
    await card.getByRole('button', { name: 'Start' }).click();
    await card.getByText('running').waitFor();
    const [experiment] = (await system.api('/admin/experiments', { session })).body.items;
    const [a, b] = experiment.variants;
    const shown = (variantId: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: 'paywall_shown', url: 'https://daily.example/story', userId: `${variantId}-${i}`, paywallId, experimentId: experiment.id, variantId }));
    const sent = await system.api('/events', { key: publishableKey, body: { events: [...shown(a.id, 12), ...shown(b.id, 7)] } });
    expect(sent.status).toBe(202);
    // Conversions: completed checkouts carrying the variant, 1 of A's 12 readers and 5 of B's 7.
    for (const [variant, buyers] of [[a, 1], [b, 5]] as const) {
      for (let i = 0; i < buyers; i++) {
        const customer = await system.api('/customers', { session, body: { email: `buyer-${variant.name.toLowerCase()}${i}@example.com`, name: `Buyer ${i}` } });
        expect(customer.status).toBe(201);
        await system.paidCheckout(fake, secretKey, publicationId, { customerId: customer.body.id, priceId, experimentId: experiment.id, variantId: variant.id, paywallId });
      }
    }

    const stats = await eventually(async () => {
      const answer = await system.api(`/admin/stats?from=${encodeURIComponent(experiment.startedAt)}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}&interval=day`, { session });
      const counted = answer.body.variants?.filter((v: { experimentId: string }) => v.experimentId === experiment.id) ?? [];
      const total = (field: 'shown' | 'checkouts') => counted.reduce((sum: number, v: Record<string, number>) => sum + v[field], 0);
      return total('shown') === 19 && total('checkouts') === 6 ? counted : undefined;
    }, 30_000);
    await page.reload();
    const table = card.getByRole('table', { name: 'Results of Button wording' });
    const figuresOf = (variantId: string) => stats.find((v: { variantId: string }) => v.variantId === variantId);
    for (const [variant, checkouts] of [[a, 1], [b, 5]] as const) {
      const figures = figuresOf(variant.id);
      expect(figures).toMatchObject({ shown: variant === a ? 12 : 7, checkouts });
      const row = table.getByRole('row', { name: new RegExp(`^${variant.name} `) });
      await row.getByRole('cell', { name: String(figures.shown), exact: true }).waitFor();
      await row.getByRole('cell', { name: String(checkouts), exact: true }).waitFor();
      await row.getByText(`${((checkouts / figures.shown) * 100).toFixed(1)} % (`, { exact: false }).waitFor();
    }
    // B converts 0.714 / 0.083 = 8.6 times as well, by the stats' own two-proportion test.
    const { significance } = figuresOf(b.id);
    expect(significance.significant).toBe(true);
    const confident = Math.floor((1 - significance.pValue) * 100);
    await table.getByRole('row', { name: /^B / }).getByText(`B converts ${(5 / 7 / (1 / 12)).toFixed(1)}× better than A; ${confident} % confident`, { exact: true }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await browser.screenshot(page, 'dashboard-experiments-results');

    await card.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Stop experiment' }).click();
    await card.getByText('stopped').waitFor();
  });
});
