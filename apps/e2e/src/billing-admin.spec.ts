import { randomUUID } from 'node:crypto';
import { BillingSystem, PUBLIC_BASE_URL, SECRET_KEY } from './support/billing';
import { adminSession } from './support/staff';

const HANDLED_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.payment_failed',
  'invoice.payment_succeeded',
  'invoice.upcoming',
  'customer.created',
  'customer.updated',
  'customer.source.expiring',
  'charge.refunded',
];

/** Products and prices (decisions F1, H2) and processor settings (F2, spec 5.3) through the dashboard's routes. */
describe('billing: products, prices and processor settings', () => {
  let system: BillingSystem;
  let productMadeBeforeSettings: any;
  let priceMadeBeforeSettings: any;

  beforeAll(async () => {
    system = await BillingSystem.start();
  }, 60_000);

  afterAll(() => system?.close());

  describe('before processor settings exist', () => {
    it('shows no settings, and where the processor will send events', async () => {
      expect((await system.admin('/admin/processor')).body).toEqual({
        configured: false,
        secretKey: null,
        webhookSecret: null,
        webhookEndpointId: null,
        webhookUrl: `${PUBLIC_BASE_URL}/api/v1/webhooks/processor?publication=${system.publicationId}`,
        updatedAt: null,
        localTestKey: null,
      });
    });

    it('stores products and prices here only', async () => {
      productMadeBeforeSettings = await system.product({ name: 'Early plan', description: 'Before the processor' });
      priceMadeBeforeSettings = await system.price(productMadeBeforeSettings.id, { currency: 'EUR', unitAmount: 500, interval: 'month' });
      expect(priceMadeBeforeSettings).toMatchObject({ currency: 'eur', unitAmount: 500, interval: 'month', trialDays: 0, active: true });
      expect(await system.fake.requestsTo('POST', '/v1/products')).toEqual([]);
    });

    it('refuses a checkout until they exist', async () => {
      const customer = await system.reader();
      expect((await system.checkout(customer, priceMadeBeforeSettings.id)).body).toMatchObject({ status: 409, code: 'conflict' });
    });
  });

  describe('processor settings', () => {
    let endpoint: any;

    it('creates the webhook endpoint at the processor when no webhook secret is given, and shows the secrets masked', async () => {
      const saved = await system.admin('/admin/processor', { method: 'PUT', body: { secretKey: SECRET_KEY } });
      expect(saved.status).toBe(200);
      const [created] = await system.fake.requestsTo('POST', '/v1/webhook_endpoints');
      expect(created.apiKey).toBe(SECRET_KEY);
      expect(created.body.url).toBe(`${PUBLIC_BASE_URL}/api/v1/webhooks/processor?publication=${system.publicationId}`);
      expect([...created.body.enabled_events].sort()).toEqual([...HANDLED_EVENTS].sort());
      endpoint = await system.fake.object('webhook_endpoint', saved.body.webhookEndpointId);
      expect(saved.body).toMatchObject({
        configured: true,
        secretKey: `sk_...${SECRET_KEY.slice(-4)}`,
        webhookSecret: `whsec_...${endpoint.secret.slice(-4)}`,
        webhookEndpointId: endpoint.id,
      });
      expect(await system.admin('/admin/processor')).toMatchObject({ body: saved.body });
    });

    it('keeps both secrets encrypted at rest', async () => {
      const [row] = await system.query('SELECT secret_key_sealed, webhook_secret_sealed FROM processor_settings');
      expect(JSON.stringify(row)).not.toContain(SECRET_KEY);
      expect(JSON.stringify(row)).not.toContain(endpoint.secret);
    });

    it('verifies inbound events with the secret of the endpoint it created', async () => {
      const event = { id: 'evt_settings_probe', object: 'event', type: 'customer.updated', created: Math.floor(Date.now() / 1000), data: { object: { id: 'cus_x', object: 'customer', metadata: {} } } };
      expect(await system.deliver(event, { secret: endpoint.secret })).toMatchObject({ status: 200 });
    });

    it('saves nothing when the processor refuses', async () => {
      const before = (await system.admin('/admin/processor')).body;
      await system.fake.failNext({ method: 'POST', path: '/v1/webhook_endpoints', status: 500 });
      expect((await system.admin('/admin/processor', { method: 'PUT', body: { secretKey: 'sk_test_other_account_1' } })).body).toMatchObject({
        status: 502,
        code: 'processor_error',
      });
      expect((await system.admin('/admin/processor')).body).toEqual(before);
    });

    it('skips creating the endpoint when a webhook secret is given, and retires the one it created before', async () => {
      const endpointsBefore = (await system.fake.requestsTo('POST', '/v1/webhook_endpoints')).length;
      const saved = await system.admin('/admin/processor', { method: 'PUT', body: { secretKey: SECRET_KEY, webhookSecret: 'whsec_supplied_by_staff_9876' } });
      expect(saved.body).toMatchObject({ configured: true, webhookSecret: 'whsec_...9876', webhookEndpointId: null });
      expect(await system.fake.requestsTo('POST', '/v1/webhook_endpoints')).toHaveLength(endpointsBefore);
      expect(await system.fake.requestsTo('DELETE', `/v1/webhook_endpoints/${endpoint.id}`)).toHaveLength(1);
    });

    it('refuses what is not a secret key or a webhook secret', async () => {
      const answer = await system.admin('/admin/processor', { method: 'PUT', body: { secretKey: 'pk_test_publishable_key', webhookSecret: 'nope' } });
      expect(answer.body).toMatchObject({ status: 400, code: 'validation_failed' });
      expect(answer.body.errors.map((e: any) => e.field).sort()).toEqual(['secretKey', 'webhookSecret']);
    });
  });

  describe('products and prices with processor settings', () => {
    let product: any;

    it('creates them at the processor too', async () => {
      product = await system.product({ name: 'Digital', entitlements: ['8b0f0c8e-4a47-4f55-9f3a-1d2b3c4d5e6f'] });
      const price = await system.price(product.id, { currency: 'usd', unitAmount: 12000, interval: 'year', trialDays: 14 });
      const [madeProduct] = await system.fake.requestsTo('POST', '/v1/products');
      expect(madeProduct.body).toMatchObject({ name: 'Digital', metadata: { productId: product.id, publicationId: system.publicationId } });
      const [madePrice] = await system.fake.requestsTo('POST', '/v1/prices');
      expect(madePrice.body).toMatchObject({ currency: 'usd', unit_amount: '12000', recurring: { interval: 'year' }, metadata: { priceId: price.id } });
      expect(madePrice.body.product).toBe((await system.fake.object('product', await processorProductId(product.id)))['id']);
    });

    it('makes the ones stored before the settings at the processor on their first checkout', async () => {
      const customer = await system.reader();
      expect((await system.checkout(customer, priceMadeBeforeSettings.id)).status).toBe(201);
      const products = await system.fake.requestsTo('POST', '/v1/products');
      expect(products.some((r) => r.body.metadata.productId === productMadeBeforeSettings.id)).toBe(true);
      expect(await system.processorPriceId(priceMadeBeforeSettings.id)).toMatch(/^price_/);
    });

    it('stores nothing when the processor refuses', async () => {
      const before = (await system.admin('/admin/products?limit=100')).body.items.length;
      await system.fake.failNext({ method: 'POST', path: '/v1/products', status: 500 });
      expect((await system.admin('/admin/products', { body: { name: 'Doomed' } })).body).toMatchObject({ status: 502, code: 'processor_error' });
      await system.fake.failNext({ method: 'POST', path: '/v1/prices', status: 500 });
      expect((await system.admin(`/admin/products/${product.id}/prices`, { body: { currency: 'eur', unitAmount: 1, interval: 'month' } })).status).toBe(502);
      expect((await system.admin('/admin/products?limit=100')).body.items).toHaveLength(before);
      expect((await system.admin(`/admin/products/${product.id}/prices`)).body.items).toHaveLength(1);
    });

    it('changes a product here and at the processor', async () => {
      const changed = await system.admin(`/admin/products/${product.id}`, { method: 'PATCH', body: { name: 'Digital+', description: null, active: false } });
      expect(changed.body).toMatchObject({ name: 'Digital+', description: null, active: false });
      const updates = await system.fake.requestsTo('POST', `/v1/products/${await processorProductId(product.id)}`);
      expect(updates.at(-1)!.body).toMatchObject({ name: 'Digital+', active: 'false' });
      expect((await system.admin(`/admin/products/${product.id}`)).body.name).toBe('Digital+');
    });

    it('keeps prices immutable but for active', async () => {
      const [price] = (await system.admin(`/admin/products/${product.id}/prices`)).body.items;
      expect((await system.admin(`/admin/prices/${price.id}`, { method: 'PATCH', body: { active: false, unitAmount: 1 } })).body).toMatchObject({
        status: 400,
        code: 'validation_failed',
      });
      expect((await system.admin(`/admin/prices/${price.id}`, { method: 'PATCH', body: { active: false } })).body).toMatchObject({ active: false, unitAmount: 12000 });
      const [processorPrice] = await system.query('SELECT processor_price_id FROM prices WHERE id = $1', [price.id]);
      expect((await system.fake.object('price', processorPrice.processor_price_id)).active).toBe(false);
    });

    it('lists newest first, a page at a time', async () => {
      await system.product({ name: 'Third' });
      const all = (await system.admin('/admin/products?limit=100')).body.items.map((p: any) => p.id);
      const first = await system.admin('/admin/products?limit=1');
      expect(first.body.items.map((p: any) => p.id)).toEqual([all[0]]);
      const second = await system.admin(`/admin/products?limit=1&cursor=${first.body.nextCursor}`);
      expect(second.body.items.map((p: any) => p.id)).toEqual([all[1]]);
      const rest = await system.admin(`/admin/products?limit=100&cursor=${second.body.nextCursor}`);
      expect(rest.body).toEqual({ items: (await system.admin('/admin/products?limit=100')).body.items.slice(2), nextCursor: null });
      expect((await system.admin('/admin/products?cursor=forged')).body).toMatchObject({ status: 400, code: 'validation_failed' });
      expect((await system.admin('/admin/products?limit=0')).body).toMatchObject({ status: 400, code: 'validation_failed' });
    });

    it('refuses to delete what a subscription uses, and deletes the rest', async () => {
      const customer = await system.reader();
      expect((await system.admin('/admin/subscriptions', { body: { customerId: customer.id, priceId: priceMadeBeforeSettings.id } })).status).toBe(201);
      expect((await system.admin(`/admin/prices/${priceMadeBeforeSettings.id}`, { method: 'DELETE' })).body).toMatchObject({ status: 409, code: 'conflict' });
      expect((await system.admin(`/admin/products/${productMadeBeforeSettings.id}`, { method: 'DELETE' })).body).toMatchObject({ status: 409 });

      const spare = await system.product({ name: 'Spare' });
      const sparePrice = await system.price(spare.id);
      expect((await system.admin(`/admin/prices/${sparePrice.id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await system.admin(`/admin/products/${spare.id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await system.admin(`/admin/products/${spare.id}`)).body).toMatchObject({ status: 404, code: 'not_found' });
    });

    it("answers 404 for another publication's products and prices", async () => {
      const other = await system.admin('/admin/publications', { body: { name: 'Other Times', domains: [`other-${randomUUID()}.example`] } });
      const { session: elsewhere } = await adminSession(system.url);
      expect((await system.api('/admin/session/publication', { method: 'PUT', session: elsewhere, body: { publicationId: other.body.id } })).status).toBe(200);
      const [price] = (await system.admin(`/admin/products/${product.id}/prices`)).body.items;
      for (const path of [`/admin/products/${product.id}`, `/admin/products/${product.id}/prices`, `/admin/prices/${price.id}`]) {
        expect((await system.api(path, { session: elsewhere })).body).toMatchObject({ status: 404, code: 'not_found' });
      }
      expect((await system.api('/admin/products', { session: elsewhere })).body).toEqual({ items: [], nextCursor: null });
      expect((await system.api('/admin/processor', { session: elsewhere })).body.configured).toBe(false);
    });
  });

  async function processorProductId(productId: string): Promise<string> {
    const [row] = await system.query('SELECT processor_product_id FROM products WHERE id = $1', [productId]);
    return row.processor_product_id;
  }
});
