import { WholeSystem } from './support/system-all';

/** `GET /api/v1/prices`: what a publisher's paywalls offer, for either key, one publication only. */
describe('the prices on sale', () => {
  let system: WholeSystem;

  beforeAll(async () => {
    system = await WholeSystem.start();
  }, 120_000);

  afterAll(() => system?.close(), 60_000);

  it('lists the active prices of active products, cheapest first, to either key of the publication and no other', async () => {
    const digital = await system.product('Digital');
    const print = await system.product('Print');
    const retired = await system.product('Retired');
    const yearly = await system.price(digital.id, { currency: 'usd', unitAmount: 5000, interval: 'year' });
    const monthly = await system.price(digital.id, { currency: 'usd', unitAmount: 500, interval: 'month', trialDays: 7 });
    const old = await system.price(digital.id, { currency: 'usd', unitAmount: 400, interval: 'month' });
    const weekend = await system.price(print.id, { currency: 'eur', unitAmount: 900, interval: 'month' });
    await system.price(retired.id, { currency: 'usd', unitAmount: 100, interval: 'month' });
    expect((await system.admin(`/admin/prices/${old.id}`, { method: 'PATCH', body: { active: false } })).status).toBe(200);
    expect((await system.admin(`/admin/products/${retired.id}`, { method: 'PATCH', body: { active: false } })).status).toBe(200);

    const expected = [
      { id: monthly.id, productId: digital.id, productName: 'Digital', currency: 'usd', unitAmount: 500, interval: 'month', trialDays: 7 },
      { id: weekend.id, productId: print.id, productName: 'Print', currency: 'eur', unitAmount: 900, interval: 'month', trialDays: 0 },
      { id: yearly.id, productId: digital.id, productName: 'Digital', currency: 'usd', unitAmount: 5000, interval: 'year', trialDays: 0 },
    ];
    for (const key of [system.publishableKey, system.secretKey]) {
      const answer = await system.api('/prices', { key });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ prices: expected });
    }

    const other = await system.otherPublicationSession();
    const keys = await system.api('/admin/api-keys', { session: other.session, body: { name: 'other-site' } });
    expect(keys.status).toBe(201);
    await expect(system.api('/prices', { key: keys.body.publishableKey })).resolves.toMatchObject({ status: 200, body: { prices: [] } });
    await expect(system.api('/prices')).resolves.toMatchObject({ status: 401, body: { code: 'api_key_missing' } });
  }, 60_000);
});
