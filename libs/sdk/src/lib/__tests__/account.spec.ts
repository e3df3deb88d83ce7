import { installAccount } from '../account';
import { KEY, page, problem, RefreshServer } from './fakes';

const subscription = { subscriptionId: 'sub-1', status: 'active', cancelAtPeriodEnd: false };
const purchase = { purchaseId: 'pur-1', kind: 'pass', productName: 'Day pass', endsAt: '2026-11-28T10:30:00.000Z' };

/** A page with the reader's routes; `routes` answers by path. */
function accountPage(routes: Record<string, () => { status: number; body?: unknown }> = {}) {
  const server = new RefreshServer();
  const answers: Record<string, () => { status: number; body?: unknown }> = {
    '/api/v1/auth/customers/login': () => ({ status: 200, body: server.issue() }),
    '/api/v1/auth/customers/logout': () => ({ status: 204 }),
    '/api/v1/subscriptions/me': () => ({ status: 200, body: { subscriptions: [subscription] } }),
    '/api/v1/subscriptions/purchases': () => ({ status: 200, body: { purchases: [purchase] } }),
    '/api/v1/subscriptions/cancel': () => ({ status: 200, body: { ...subscription, cancelAtPeriodEnd: true } }),
    ...routes,
  };
  const opened = page(({ url }) => (answers[url.pathname] ?? (() => problem(404, 'not_found')))());
  opened.gatehouse.init({ publishableKey: KEY, autoPageview: false });
  return { ...opened, client: installAccount(opened.gatehouse) };
}

describe("the reader's account methods", () => {
  it('need a logged-in reader, and ask nothing without one', async () => {
    const { client, requests } = accountPage();
    await expect(client.getSubscriptions()).rejects.toMatchObject({ code: 'customer_token_required' });
    await expect(client.cancelSubscription('sub-1', 'unused')).rejects.toMatchObject({ code: 'customer_token_required' });
    expect(requests).toEqual([]);
  });

  it("send the reader's token: their subscriptions and purchases, a cancel at the period end with the reason", async () => {
    const { client, requests } = accountPage();
    await client.login({ email: 'r@example.com', password: 'reader-password' });
    await expect(client.getSubscriptions()).resolves.toEqual([subscription]);
    await expect(client.getPurchases()).resolves.toEqual([purchase]);
    await expect(client.cancelSubscription('sub-1', 'too_expensive')).resolves.toMatchObject({ cancelAtPeriodEnd: true });
    expect(requests.slice(1).map((r) => [r.path, r.body, r.headers['Authorization']])).toEqual([
      ['/api/v1/subscriptions/me', undefined, 'Bearer access-1'],
      ['/api/v1/subscriptions/purchases', undefined, 'Bearer access-1'],
      ['/api/v1/subscriptions/cancel', { subscriptionId: 'sub-1', atPeriodEnd: true, reason: 'too_expensive' }, 'Bearer access-1'],
    ]);
  });

  it('logout({everywhere: true}) asks the service to end every session', async () => {
    const { client, requests } = accountPage();
    await client.login({ email: 'r@example.com', password: 'reader-password' });
    await client.logout({ everywhere: true });
    expect(requests.at(-1)).toMatchObject({ path: '/api/v1/auth/customers/logout', body: { refreshToken: 'refresh-1', everywhere: true } });
    expect(await client.getSession()).toBeNull();
  });
});
