import { BENCH_ADMIN } from './processes';

/** What the scenarios need, prepared through the public API as a publisher would. */
export interface Fixtures {
  publishableKey: string;
  /** An access token of a customer with an active subscription. */
  subscriberToken: string;
  /** The bench admin's session cookie, for the admin routes (the import). */
  adminCookie: string;
}

/** The organisations' networks: 100 organisations of 100 ranges each, `a.b.0.0/16` for a = 20 + i / 256, b = i % 256 (i < 10,000). */
export const NETWORK_ORGANISATIONS = 100;
export const RANGES_PER_ORGANISATION = 100;
export const networkRange = (i: number) => `${20 + (i >> 8)}.${i & 255}.0.0/16`;

export const SITE = 'http://localhost';

/** A call to the API: `body` as JSON, or `raw` as it is (with its content-type among `headers`). */
export async function api(base: string, path: string, init: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<any> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'POST'} ${path} answered ${res.status}: ${text}`);
  return { body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** Keys, a paywall of each kind the scenarios visit, a segment on visit_count, a running experiment, a subscriber and 10,000 organisations' ranges. */
export async function prepare(base: string): Promise<Fixtures> {
  const login = await api(base, '/admin/session', { body: BENCH_ADMIN });
  const cookie = (/service_session=[^;]*/.exec(login.headers.get('set-cookie') ?? '') ?? [''])[0];
  const admin = (path: string, body?: unknown) => api(base, `/admin${path}`, { body, headers: { cookie } }).then((answer) => answer.body);

  const keys = await admin('/api-keys', { name: 'bench' });
  const segment = await admin('/segments', { name: 'Regulars', match: 'all', conditions: [{ attribute: 'visit_count', operator: 'gt', value: 3 }] });
  await admin('/paywalls', { name: 'Metered', type: 'metered', config: { limit: 10000, period: 'month' }, match: { include: ['/metered/**'] }, priority: 10 });
  await admin('/paywalls', { name: 'Hard', type: 'hard', match: { include: ['/hard/**'] }, priority: 20 });
  const tested = await admin('/paywalls', { name: 'Tested', type: 'soft', match: { include: ['/experiment/**'] }, priority: 30 });
  await admin('/paywalls', { name: 'Regulars', type: 'soft', match: { include: ['/segment/**'] }, segmentId: segment.id, priority: 40 });
  const experiment = await admin('/experiments', {
    name: 'Presentation',
    paywallId: tested.id,
    variants: [
      { name: 'Modal', weight: 500, overrides: {} },
      { name: 'Inline', weight: 500, overrides: { presentation: 'inline' } },
    ],
  });
  await admin(`/experiments/${experiment.id}/start`, {});

  const customer = (
    await api(base, '/auth/customers/register', {
      body: { email: `bench-${Date.now()}@example.com`, password: 'bench-reader-password', name: 'Bench Reader' },
      headers: { 'x-api-key': keys.publishableKey },
    })
  ).body;
  const product = await admin('/products', { name: 'Digital' });
  const price = await admin(`/products/${product.id}/prices`, { currency: 'eur', unitAmount: 900, interval: 'month' });
  await admin('/subscriptions', { customerId: customer.customer.id, priceId: price.id });
  for (let o = 0; o < NETWORK_ORGANISATIONS; o++) {
    const ipRanges = Array.from({ length: RANGES_PER_ORGANISATION }, (_, r) => networkRange(o * RANGES_PER_ORGANISATION + r));
    await admin('/organisations', { name: `Campus ${o}`, productId: product.id, ipRanges });
  }
  return { publishableKey: keys.publishableKey, subscriberToken: customer.accessToken, adminCookie: cookie };
}
