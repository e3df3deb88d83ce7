import { EMAIL_LINK_PARAMETERS, type CustomerAuthResult } from '@gatehouse/contracts';
import { LINK_PARAMETERS, takeEmailLink } from '../email-links';
import { GatehouseError } from '../errors';
import type { Session } from '../sessions';
import { KEY, page, problem, RefreshServer } from './fakes';

const accepted = { status: 202, body: { accepted: true } };
const STORY = 'https://news.example/story?id=7';

/** A page opened from an emailed link, or a plain one, with the auth routes of account email. */
function emailPage(href = STORY, answers: Record<string, () => { status: number; body?: unknown }> = {}) {
  const server = new RefreshServer();
  const signedIn = (): { status: number; body: CustomerAuthResult } => ({ status: 200, body: server.issue() });
  const routes: Record<string, () => { status: number; body?: unknown }> = {
    '/api/v1/auth/customers/password-reset': () => accepted,
    '/api/v1/auth/customers/login-code': () => accepted,
    '/api/v1/auth/customers/password-reset/confirm': signedIn,
    '/api/v1/auth/customers/login-code/verify': signedIn,
    '/api/v1/auth/customers/login-code/link': signedIn,
    '/api/v1/auth/customers/refresh': signedIn,
    ...answers,
  };
  const opened = page(({ url }) => (routes[url.pathname] ?? (() => problem(404, 'not_found')))(), undefined, href);
  opened.gatehouse.init({ publishableKey: KEY, autoPageview: false });
  const changes: Array<Session | null> = [];
  opened.gatehouse.onAuthChange((session) => changes.push(session));
  return { ...opened, server, changes };
}

describe('Account email in the SDK', () => {
  it('knows the link parameters of the contracts', () => {
    expect(LINK_PARAMETERS).toEqual(EMAIL_LINK_PARAMETERS);
  });

  it('asks for a reset link or a sign-in code for an address, the link leading back to this page without its fragment unless told otherwise', async () => {
    const { gatehouse, requests } = emailPage(`${STORY}#comments`);
    await gatehouse.requestPasswordReset('reader@example.com');
    await gatehouse.requestLoginCode('reader@example.com', { returnUrl: 'https://news.example/account' });
    expect(requests.map((r) => [r.path, r.body, r.headers['X-API-Key']])).toEqual([
      ['/api/v1/auth/customers/password-reset', { email: 'reader@example.com', returnUrl: STORY }, KEY],
      ['/api/v1/auth/customers/login-code', { email: 'reader@example.com', returnUrl: 'https://news.example/account' }, KEY],
    ]);
  });

  it('leads the verification email of a registration back to this page, port and path kept', async () => {
    const here = 'http://127.0.0.1:8123/members/account?tab=profile';
    const { gatehouse, requests } = emailPage(`${here}#top`, { '/api/v1/auth/customers/register': () => ({ status: 201, body: new RefreshServer().issue() }) });
    await gatehouse.register({ email: 'reader@example.com', password: 'a password 1', name: 'Ada' });
    expect(requests.at(-1)).toMatchObject({ path: '/api/v1/auth/customers/register', body: { email: 'reader@example.com', name: 'Ada', returnUrl: here } });
  });

  it.each([
    ['plain http on a public host', 'http://news.example/story'],
    ['a user name and password', 'https://reader:secret@news.example/story'],
    ['over 2000 characters', `https://news.example/story?q=${'x'.repeat(2000)}`],
  ])('sends no page for the link when this page has %s: the service falls back to the default page', async (_label, href) => {
    const { gatehouse, requests } = emailPage(href);
    await gatehouse.requestPasswordReset('reader@example.com');
    expect(requests.at(-1)).toMatchObject({ path: '/api/v1/auth/customers/password-reset', body: { email: 'reader@example.com' } });
    expect(requests.at(-1)!.body).not.toHaveProperty('returnUrl');
  });

  it('rejects what the service refuses with its code, and signs no one in', async () => {
    const { gatehouse, changes } = emailPage(STORY, {
      '/api/v1/auth/customers/password-reset': () => problem(429, 'rate_limited'),
      '/api/v1/auth/customers/login-code/verify': () => problem(401, 'code_invalid'),
    });
    await expect(gatehouse.requestPasswordReset('reader@example.com')).rejects.toMatchObject({ code: 'rate_limited', status: 429 });
    await expect(gatehouse.signInWithCode('reader@example.com', '123456')).rejects.toBeInstanceOf(GatehouseError);
    expect(await gatehouse.getSession()).toBeNull();
    expect(changes).toEqual([]);
  });

  it('signs in with an emailed code like a login: the session is stored and onAuthChange hears of it', async () => {
    const { gatehouse, requests, changes, storage } = emailPage();
    const session = await gatehouse.signInWithCode('reader@example.com', ' 042 917 ');
    expect(requests.at(-1)).toMatchObject({ path: '/api/v1/auth/customers/login-code/verify', body: { email: 'reader@example.com', code: '042917' } });
    expect(session.customer.id).toBe('customer-1');
    expect(changes).toEqual([session]);
    expect(JSON.parse(storage.getItem(`gatehouse:${KEY}:session`) as string).refreshToken).toBe('refresh-1');
    expect(await gatehouse.getSession()).toEqual(session);
  });

  it.each([
    ['password_reset', 'gatehouse-reset-password'],
    ['login_code', 'gatehouse-login'],
    ['email_verification', 'gatehouse-verify-email'],
  ])('takes a %s link out of the address at init and uses nothing up until the page confirms it', async (kind, parameter) => {
    const { gatehouse, requests, replaced } = emailPage(`${STORY}#${parameter}=tok_abc`);
    expect(replaced).toEqual([STORY]);
    expect(gatehouse.readEmailLink()).toEqual({ kind, token: 'tok_abc' });
    expect(gatehouse.readEmailLink()).toEqual({ kind, token: 'tok_abc' });
    expect(requests).toEqual([]);
  });

  it('keeps other fragment parameters, and reads nothing from a page opened without a link', () => {
    expect(emailPage(`${STORY}#gatehouse-login=tok_1&section=2`).replaced).toEqual([`${STORY}#section=2`]);
    const plain = emailPage(`${STORY}#section=2`);
    expect(plain.replaced).toEqual([]);
    expect(plain.gatehouse.readEmailLink()).toBeNull();
    expect(takeEmailLink(`${STORY}#gatehouse-login=`)).toBeNull();
  });

  it('confirms a reset with the link token and the new password, signs the reader in and forgets the link', async () => {
    const { gatehouse, requests, changes } = emailPage(`${STORY}#gatehouse-reset-password=tok_reset`);
    const link = gatehouse.readEmailLink();
    const session = await gatehouse.confirmPasswordReset(link!.token, 'a new password');
    expect(requests.map((r) => [r.path, r.body])).toEqual([['/api/v1/auth/customers/password-reset/confirm', { token: 'tok_reset', password: 'a new password' }]]);
    expect(changes).toEqual([session]);
    expect(gatehouse.readEmailLink()).toBeNull();
  });

  it('signs in from a sign-in link only when asked; a refused token keeps the link for the page to say so', async () => {
    let refuse = true;
    const { gatehouse, changes } = emailPage(`${STORY}#gatehouse-login=tok_login`, {
      '/api/v1/auth/customers/login-code/link': () => (refuse ? problem(401, 'email_token_invalid') : { status: 200, body: new RefreshServer().issue() }),
    });
    await expect(gatehouse.signInWithLink('tok_login')).rejects.toMatchObject({ code: 'email_token_invalid' });
    expect(gatehouse.readEmailLink()).toEqual({ kind: 'login_code', token: 'tok_login' });
    refuse = false;
    await gatehouse.signInWithLink('tok_login');
    expect(changes.map((session) => session?.customer.id)).toEqual(['customer-1']);
    expect(gatehouse.readEmailLink()).toBeNull();
  });

  it('verifies an address and refreshes a signed-in reader, whose new access token says so', async () => {
    const verified = { status: 200, body: { id: 'customer-1', email: 'r@example.com', name: 'Reader', emailVerified: true } };
    const { gatehouse, requests, server, storage } = emailPage(`${STORY}#gatehouse-verify-email=tok_verify`, { '/api/v1/auth/customers/verify-email': () => verified });
    storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...server.issue(), refreshAt: Date.now() + 600_000 }));
    expect(await gatehouse.verifyEmail('tok_verify')).toEqual(verified.body);
    expect(requests.map((r) => r.path)).toEqual(['/api/v1/auth/customers/verify-email', '/api/v1/auth/customers/refresh']);
    expect((await gatehouse.getSession())?.accessToken).toBe('access-2');
    expect(gatehouse.readEmailLink()).toBeNull();
  });

  it('asks for a new verification email for the signed-in reader only', async () => {
    const { gatehouse, requests, server, storage } = emailPage(STORY, { '/api/v1/auth/customers/verify-email/send': () => accepted });
    await expect(gatehouse.requestEmailVerification()).rejects.toMatchObject({ code: 'customer_token_required' });
    expect(requests).toEqual([]);
    storage.setItem(`gatehouse:${KEY}:session`, JSON.stringify({ ...server.issue(), refreshAt: Date.now() + 600_000 }));
    await gatehouse.requestEmailVerification();
    expect(requests.map((r) => [r.path, r.body, r.headers['Authorization']])).toEqual([['/api/v1/auth/customers/verify-email/send', { returnUrl: STORY }, 'Bearer access-1']]);
  });
});
