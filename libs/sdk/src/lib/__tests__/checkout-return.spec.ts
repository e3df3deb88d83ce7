import type { CheckoutConfirmation } from '@gatehouse/contracts';
import type { AccessResult } from '../gatehouse';
import { takeCheckoutReturn, withCheckoutReturn } from '../checkout-return';
import { KEY, page, problem, RefreshServer, tick } from './fakes';

const denied = { granted: false, reason: 'blocked', customerId: 'customer-1' };
const granted = { granted: true, reason: 'subscriber', customerId: 'customer-1' };
const signedIn = (storage: Storage) => storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...new RefreshServer().issue(), refreshAt: Date.now() + 600_000 }));

describe('return from checkout', () => {
  it('asks the processor to send the reader back with the session id: the success URL carries the template variable once', () => {
    expect(withCheckoutReturn('https://news.example/story')).toBe('https://news.example/story?gatehouse_checkout={CHECKOUT_SESSION_ID}');
    expect(withCheckoutReturn('https://news.example/story?page=2#comments')).toBe('https://news.example/story?page=2&gatehouse_checkout={CHECKOUT_SESSION_ID}#comments');
    expect(withCheckoutReturn('https://news.example/thanks?session={CHECKOUT_SESSION_ID}')).toBe('https://news.example/thanks?session={CHECKOUT_SESSION_ID}');
    expect(takeCheckoutReturn('https://news.example/story?page=2&gatehouse_checkout=cs_test_1#comments')).toEqual({ sessionId: 'cs_test_1', rest: 'https://news.example/story?page=2#comments' });
    expect(takeCheckoutReturn('https://news.example/story?page=2')).toBeNull();
  });

  it('checkout sends that success URL to the service', async () => {
    const { gatehouse, requests, storage } = page(() => ({ status: 201, body: { url: 'https://processor.example/checkout/cs_1', sessionId: 'cs_1' } }));
    signedIn(storage);
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    await gatehouse.checkout({ priceId: 'p', successUrl: 'https://news.example/story#top', cancelUrl: 'https://news.example/story' });
    expect(requests[0].body).toMatchObject({ successUrl: 'https://news.example/story?gatehouse_checkout={CHECKOUT_SESSION_ID}#top', cancelUrl: 'https://news.example/story' });
  });

  it('on the page it leads back to: the id leaves the address, the checkout is confirmed, the page checked again and unlocked, and every tab told', async () => {
    let paid = false;
    const confirmation: CheckoutConfirmation = { sessionId: 'cs_test_1', status: 'complete', subscription: null, purchase: null };
    const { gatehouse, requests, replaced, storage } = page(({ url }) => {
      if (url.pathname.endsWith('/checkout/confirm')) {
        paid = true;
        return { status: 200, body: confirmation };
      }
      return { status: 200, body: paid ? granted : denied };
    }, undefined, 'https://news.example/story?gatehouse_checkout=cs_test_1#top');
    signedIn(storage);
    const seen: AccessResult[] = [];
    const confirmed: CheckoutConfirmation[] = [];
    gatehouse.on('access', (result) => seen.push(result));
    gatehouse.on('checkout', (result) => confirmed.push(result));
    gatehouse.init({ publishableKey: KEY, autoPageview: false, autoCheckAccess: true });
    expect(replaced).toEqual(['https://news.example/story#top']);
    await tick(20);
    const confirm = requests.find((r) => r.path === '/api/v1/subscriptions/checkout/confirm')!;
    expect(confirm).toMatchObject({ body: { sessionId: 'cs_test_1' }, headers: { Authorization: 'Bearer access-1' } });
    expect(seen.at(-1)).toEqual(granted);
    expect(gatehouse.lastAccess).toEqual(granted);
    expect(confirmed).toEqual([confirmation]);
    // The other tabs hear of it through storage (their `storage` event).
    expect(storage.getItem(`gatehouse:${KEY}:access-changed`)).toEqual(expect.any(String));
  });

  it('tries again while the service cannot answer, and says why it gave up; a reader not signed in is not asked about', async () => {
    let attempts = 0;
    const { gatehouse, storage } = page(() => {
      attempts += 1;
      return problem(502, 'processor_error');
    }, undefined, 'https://news.example/story?gatehouse_checkout=cs_test_2');
    signedIn(storage);
    const errors: string[] = [];
    gatehouse.on('error', (error) => errors.push(error.code));
    gatehouse.init({ publishableKey: KEY, autoPageview: false });
    // Three tries about a second and two apart, then the reader is told: waited for, however slow the machine.
    for (let waited = 0; errors.length === 0 && waited < 30_000; waited += 100) await tick(100);
    expect(attempts).toBe(3);
    expect(errors).toEqual(['processor_error']);

    const anonymous = page(() => ({ status: 200, body: denied }), undefined, 'https://news.example/story?gatehouse_checkout=cs_test_3');
    anonymous.gatehouse.init({ publishableKey: KEY, autoPageview: false });
    await tick(10);
    expect(anonymous.requests).toEqual([]);
    expect(anonymous.replaced).toEqual(['https://news.example/story']);
  }, 40_000);
});
