import { accessService } from '@gatehouse/access';
import { adminService } from '@gatehouse/admin';
import { brandingService } from '@gatehouse/branding';
import { deleteEventStream } from '@gatehouse/bus';
import { startService, type RunningService } from '@gatehouse/runtime';
import { EMAIL_LINK_PARAMETERS, Events, LOGIN_CODE_MAX_ATTEMPTS, type EmailKind } from '@gatehouse/contracts';
import { identityService } from '@gatehouse/identity';
import { Clock, loadConfig } from '@gatehouse/platform';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anotherTenant, apiOf, bootstrapTenant, STAFF_ENV, type Api, type KeyPair, type Tenant } from './support/customers';
import { EventReader } from './support/events';
import { TestDnsServer } from './support/dns-server';
import { codeIn, linkIn, SmtpSink } from './support/mail';
import { freePort } from './support/processes';
import { staffSession } from './support/staff';
import { querySchema, startGatewayOverNats, startServiceOverNats, type TestGateway } from './support/system';

/** The system's time, which a test may move forward to see what expires. */
class ShiftedClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const PASSWORD = 'first password 1';
const NEW_PASSWORD = 'second password 2';
const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/**
 * Account email end to end (docs/email.md): identity, admin and branding over the real NATS and
 * PostgreSQL, the gateway in front, and a real SMTP server started here as the mail provider.
 */
describe('account email through the gateway, over SMTP', () => {
  const namespace = uniqueNamespace('mail');
  const clock = new ShiftedClock();
  let db: TestDatabase;
  let sink: SmtpSink;
  let identity: RunningService;
  const others: RunningService[] = [];
  let gateway: TestGateway;
  let api: Api;
  let tenant: Tenant;
  let events: EventReader;
  /** The publisher's own page the links lead to, recording every request that reaches it. */
  let site: Server;
  let siteUrl: string;
  const siteRequests: IncomingMessage[] = [];
  /** Domain proofs: the well-known file's content per host (served by the site, where admin is told to fetch it) and TXT records. */
  const proofFiles = new Map<string, string>();
  const publicationPath = () => `/admin/publications/${tenant.publicationId}`;
  const verifyDomain = (domain: string, session = tenant.session) => api(`${publicationPath()}/domains/verify`, { session, body: { domain } });
  /** Verifies `domain` while a local DNS server answers the TXT records given: the process's resolver points at it only meanwhile. */
  async function verifyWithDns(domain: string, txt: Record<string, string>, session = tenant.session) {
    const dns = await TestDnsServer.start();
    for (const [name, value] of Object.entries(txt)) dns.txt(name, value);
    dns.useForThisProcess();
    try {
      return await verifyDomain(domain, session);
    } finally {
      dns.close();
    }
  }
  async function proofToken(domain: string): Promise<string> {
    const proofs = await api(`${publicationPath()}/domains`, { session: tenant.session });
    return proofs.body.items.find((proof: { domain: string }) => proof.domain === domain).token;
  }

  function startIdentity(env: Record<string, string>): Promise<RunningService> {
    const config = loadConfig(identityService.config, {
      ...STAFF_ENV,
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
      BUS_NAMESPACE: namespace,
      EMAIL_FROM: 'accounts@alpha.example',
      EMAIL_RETRY_DELAYS_SECONDS: '1,2,4,8,16',
      ...env,
    });
    return startService(identityService, { config, transport: { kind: 'nats', servers: [testNatsUrl()] }, databaseUrl: db.url, clock, migrate: true });
  }

  /** A key pair of its own per test, so that the gateway's per-key limit of these routes is the test's alone. */
  async function keys(): Promise<KeyPair> {
    const created = await api<KeyPair>('/admin/api-keys', { session: tenant.session, body: { name: `keys-${randomUUID().slice(0, 8)}` } });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function register(key: string, email: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const registered = await api('/auth/customers/register', { key, headers, body: { email, password: PASSWORD, name: 'Ada Reader', ...extra } });
    expect(registered.status).toBe(201);
    return registered.body as { accessToken: string; refreshToken: string; customer: { id: string; emailVerified: boolean } };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    sink = await SmtpSink.start();
    site = createServer((req, res) => {
      const proofFile = /^\/([^/]+)\/\.well-known\/gatehouse-verification\.txt$/.exec(req.url ?? '');
      if (proofFile) {
        const content = proofFiles.get(proofFile[1]);
        res.writeHead(content ? 200 : 404, { 'content-type': 'text/plain' }).end(content ?? 'not found');
        return;
      }
      siteRequests.push(req);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Sign in to Alpha Times? <button>Continue</button></p>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    identity = await startIdentity({ SMTP_URL: sink.url });
    // Well-known proof files are fetched from the local site, over http as on loopback only.
    others.push(await startServiceOverNats(adminService, db.url, namespace, { ...STAFF_ENV, DOMAIN_PROOF_FILE_URL: `${siteUrl}/{host}/.well-known/gatehouse-verification.txt` }));
    others.push(await startServiceOverNats(brandingService, db.url, namespace));
    others.push(await startServiceOverNats(accessService, db.url, namespace));
    gateway = await startGatewayOverNats(namespace);
    api = apiOf(gateway.url);
    tenant = await bootstrapTenant(api);
    const domains = await api(`/admin/publications/${tenant.publicationId}`, { method: 'PATCH', session: tenant.session, body: { domains: ['alpha.example', '127.0.0.1'] } });
    expect(domains.status).toBe(200);
    // The publisher proved alpha.example (127.0.0.1, a loopback host, needs no proof).
    expect((await verifyWithDns('alpha.example', { '_gatehouse.alpha.example': await proofToken('alpha.example') })).status).toBe(200);
    const branding = await api('/branding/admin', {
      method: 'PUT',
      session: tenant.session,
      body: { brandingMode: 'themed', brandColor: '#c2410c', logoUrl: 'https://cdn.alpha.example/logo.png' },
    });
    expect(branding.status).toBe(200);
    events = await EventReader.start(namespace, [Events.CustomerCreated.name, Events.CustomerUpdated.name, Events.CustomerVerified.name]);
  }, 90_000);

  afterAll(async () => {
    await events?.close();
    await gateway?.close();
    await identity?.close();
    for (const service of others) await service.close();
    await sink?.close();
    site?.close();
    await db?.drop();
    await deleteEventStream([testNatsUrl()], namespace);
  }, 60_000);

  it("sends a verification email on registration, in the reader's language and the publication's branding, and the link verifies once", async () => {
    const { publishableKey } = await keys();
    const email = newEmail('verify');
    const registered = await register(publishableKey, email, { returnUrl: `${siteUrl}/welcome` }, { 'Accept-Language': 'de-AT, en;q=0.5' });
    expect(registered.customer.emailVerified).toBe(false);

    const mail = await sink.nextTo(email);
    expect(mail.headers['from']).toBe('Alpha Times <accounts@alpha.example>');
    expect(mail.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für Alpha Times');
    expect(mail.text).toContain('Hallo Ada Reader');
    expect(mail.html).toContain('#c2410c');
    expect(mail.html).toContain('src="https://cdn.alpha.example/logo.png"');
    const link = linkIn(mail.text, 'email_verification');
    expect(link.url.startsWith(`${siteUrl}/welcome#gatehouse-verify-email=`)).toBe(true);
    expect(mail.html).toContain(`href="${link.url}"`);

    const verified = await api('/auth/customers/verify-email', { key: publishableKey, body: { token: link.token } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id: registered.customer.id, email, emailVerified: true });
    const me = await api('/auth/customers/me', { key: publishableKey, token: registered.accessToken });
    expect(me.body.emailVerified).toBe(true);
    // A publisher's ESP or CRM follows: customer.created on registration, customer.verified once the link is opened.
    const ofReader = () => events.received.filter((e) => (e.data as { customerId: string }).customerId === registered.customer.id);
    const announced = await eventually(() => (ofReader().length === 2 ? ofReader() : undefined));
    expect(announced.map(({ name, data }) => ({ name, data }))).toEqual([
      { name: 'customer.created', data: { customerId: registered.customer.id, email, name: 'Ada Reader', emailVerified: false, createdAt: expect.any(String) } },
      { name: 'customer.verified', data: { customerId: registered.customer.id, email, name: 'Ada Reader', emailVerified: true, createdAt: expect.any(String) } },
    ]);

    const again = await api('/auth/customers/verify-email', { key: publishableKey, body: { token: link.token } });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('email_token_invalid');
    // Verified already: asking for another link sends nothing.
    const resend = await api('/auth/customers/verify-email/send', { key: publishableKey, token: registered.accessToken, body: {} });
    expect(resend.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(sink.to(email)).toHaveLength(1);
  });

  it('resets a password: old sessions end, the new password works, the link is single use and expires after 30 minutes', async () => {
    const { publishableKey } = await keys();
    const email = newEmail('reset');
    const registered = await register(publishableKey, email);
    await sink.nextTo(email); // the verification message

    const requested = await api('/auth/customers/password-reset', { key: publishableKey, body: { email: `  ${email.toUpperCase()} `, returnUrl: `${siteUrl}/reset` } });
    expect(requested.status).toBe(202);
    expect(requested.body).toEqual({ accepted: true });
    const mail = await sink.nextTo(email, 2);
    expect(mail.subject).toBe('Reset your Alpha Times password');
    expect(mail.text).toContain('for 30 minutes');
    const { token } = linkIn(mail.text, 'password_reset');

    const tooShort = await api('/auth/customers/password-reset/confirm', { key: publishableKey, body: { token, password: 'short' } });
    expect(tooShort.status).toBe(400);
    const confirmed = await api('/auth/customers/password-reset/confirm', { key: publishableKey, body: { token, password: NEW_PASSWORD } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.customer).toMatchObject({ id: registered.customer.id, email, emailVerified: true });

    const oldSession = await api('/auth/customers/refresh', { key: publishableKey, body: { refreshToken: registered.refreshToken } });
    expect(oldSession.status).toBe(401);
    expect((await api('/auth/customers/login', { key: publishableKey, body: { email, password: PASSWORD } })).status).toBe(401);
    expect((await api('/auth/customers/login', { key: publishableKey, body: { email, password: NEW_PASSWORD } })).status).toBe(200);
    const newSession = await api('/auth/customers/refresh', { key: publishableKey, body: { refreshToken: confirmed.body.refreshToken } });
    expect(newSession.status).toBe(200);

    const reused = await api('/auth/customers/password-reset/confirm', { key: publishableKey, body: { token, password: 'third password 3' } });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('email_token_invalid');

    await api('/auth/customers/password-reset', { key: publishableKey, body: { email } });
    const late = linkIn((await sink.nextTo(email, 3)).text, 'password_reset');
    clock.offsetMs = 31 * 60_000;
    try {
      const expired = await api('/auth/customers/password-reset/confirm', { key: publishableKey, body: { token: late.token, password: 'third password 3' } });
      expect(expired.status).toBe(401);
      expect(expired.body.code).toBe('email_token_invalid');
    } finally {
      clock.offsetMs = 0;
    }
    expect((await api('/auth/customers/login', { key: publishableKey, body: { email, password: NEW_PASSWORD } })).status).toBe(200);
  });

  it("ends the links sent to an address once staff change the customer's email, and clears its verification", async () => {
    const { publishableKey } = await keys();
    const email = newEmail('moved');
    const registered = await register(publishableKey, email);
    const { token: verifyToken } = linkIn((await sink.nextTo(email)).text, 'email_verification');
    expect((await api('/auth/customers/verify-email', { key: publishableKey, body: { token: verifyToken } })).body.emailVerified).toBe(true);
    await api('/auth/customers/password-reset', { key: publishableKey, body: { email } });
    const { token } = linkIn((await sink.nextTo(email, 2)).text, 'password_reset');

    const moved = await api(`/customers/${registered.customer.id}`, { method: 'PATCH', session: tenant.session, body: { email: newEmail('new-address') } });
    expect(moved.status).toBe(200);
    expect(moved.body.emailVerified).toBe(false);
    const refused = await api('/auth/customers/password-reset/confirm', { key: publishableKey, body: { token, password: NEW_PASSWORD } });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('email_token_invalid');
  });

  it('lets a signed-in reader change their own name and email: the new address is unverified until the link sent to it is opened', async () => {
    const { publishableKey } = await keys();
    const [email, taken] = [newEmail('self'), newEmail('taken')];
    const registered = await register(publishableKey, email);
    await register(publishableKey, taken);
    const { token: verifyToken } = linkIn((await sink.nextTo(email)).text, 'email_verification');
    await api('/auth/customers/verify-email', { key: publishableKey, body: { token: verifyToken } });
    const patch = (body: Record<string, unknown>, token = registered.accessToken) => api('/auth/customers/me', { method: 'PATCH', key: publishableKey, token, body });

    // Bad input changes nothing.
    expect((await patch({ email: 'not an address' })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'email' }] });
    expect((await patch({ name: '' })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'name' }] });
    expect((await patch({ email: taken })).body).toMatchObject({ status: 409, code: 'email_taken' });
    expect((await patch({ email: newEmail('elsewhere'), returnUrl: 'https://evil.example/account' })).body).toMatchObject({ status: 403, code: 'url_not_in_publication' });
    expect((await patch({ name: 'Nobody' }, 'x.y.z')).body).toMatchObject({ status: 401, code: 'token_invalid' });
    expect((await api('/auth/customers/me', { method: 'PATCH', key: publishableKey, body: { name: 'Nobody' } })).body).toMatchObject({ status: 401, code: 'customer_token_required' });
    expect((await api('/auth/customers/me', { key: publishableKey, token: registered.accessToken })).body).toMatchObject({ email, name: 'Ada Reader', emailVerified: true });

    const moved = newEmail('moved-self');
    const changed = await patch({ name: 'Ada Lovelace', email: moved.toUpperCase(), returnUrl: `${siteUrl}/account` });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: registered.customer.id, name: 'Ada Lovelace', email: moved, emailVerified: false });
    const link = linkIn((await sink.nextTo(moved)).text, 'email_verification');
    expect(link.url.startsWith(`${siteUrl}/account#`)).toBe(true);
    expect((await api('/auth/customers/verify-email', { key: publishableKey, body: { token: link.token } })).body).toMatchObject({ email: moved, emailVerified: true });
    const updated = await eventually(() => events.all('customer.updated', (d: { customerId: string }) => d.customerId === registered.customer.id)[0]);
    expect(updated.data).toMatchObject({ email: moved, name: 'Ada Lovelace', emailVerified: false });
  });

  it('signs a reader in with the emailed code; wrong codes are limited and use the code up', async () => {
    const { publishableKey } = await keys();
    const email = newEmail('code');
    const registered = await register(publishableKey, email);
    await sink.nextTo(email);

    expect((await api('/auth/customers/login-code', { key: publishableKey, body: { email } })).status).toBe(202);
    const first = await sink.nextTo(email, 2);
    expect(first.subject).toMatch(/^Your Alpha Times sign-in code: \d{6}$/);
    const code = codeIn(first.subject);
    expect(first.text).toContain(code);

    const signedIn = await api('/auth/customers/login-code/verify', { key: publishableKey, body: { email, code } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.customer).toMatchObject({ id: registered.customer.id, emailVerified: true });
    expect((await api('/auth/customers/login-code/verify', { key: publishableKey, body: { email, code } })).body.code).toBe('code_invalid');

    expect((await api('/auth/customers/login-code', { key: publishableKey, body: { email } })).status).toBe(202);
    const second = await sink.nextTo(email, 3);
    const secondCode = codeIn(second.subject);
    const secondWrong = secondCode === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt < LOGIN_CODE_MAX_ATTEMPTS; attempt++) {
      const refused = await api('/auth/customers/login-code/verify', { key: publishableKey, body: { email, code: secondWrong } });
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('code_invalid');
    }
    // The last allowed wrong code uses the code up: the right one no longer works, nor does the link.
    expect((await api('/auth/customers/login-code/verify', { key: publishableKey, body: { email, code: secondWrong } })).status).toBe(401);
    expect((await api('/auth/customers/login-code/verify', { key: publishableKey, body: { email, code: secondCode } })).status).toBe(401);
    const link = linkIn(second.text, 'login_code');
    expect((await api('/auth/customers/login-code/link', { key: publishableKey, body: { token: link.token } })).status).toBe(401);
  });

  it("signs a reader in with the emailed link only after the page's confirm step: opening the link uses nothing up", async () => {
    const { publishableKey } = await keys();
    const email = newEmail('link');
    const registered = await register(publishableKey, email);
    await sink.nextTo(email);

    const foreign = await api('/auth/customers/login-code', { key: publishableKey, body: { email, returnUrl: 'https://evil.example/steal' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('url_not_in_publication');
    const plain = await api('/auth/customers/login-code', { key: publishableKey, body: { email, returnUrl: 'http://alpha.example/welcome' } });
    expect(plain.body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'returnUrl' }] });

    expect((await api('/auth/customers/login-code', { key: publishableKey, body: { email, returnUrl: `${siteUrl}/sign-in` } })).status).toBe(202);
    const mail = await sink.nextTo(email, 2);
    const link = linkIn(mail.text, 'login_code');
    expect(link.url.startsWith(`${siteUrl}/sign-in#gatehouse-login=`)).toBe(true);

    // A mail filter opens the link, twice, and probes the API with GETs: none of it uses the token.
    const before = siteRequests.length;
    for (let i = 0; i < 2; i++) expect((await fetch(link.url)).status).toBe(200);
    expect(siteRequests.slice(before).map((req) => req.url)).toEqual(['/sign-in', '/sign-in']);
    expect((await fetch(`${gateway.url}/api/v1/auth/customers/login-code/link?token=${link.token}`, { headers: { 'X-API-Key': publishableKey } })).status).toBe(404);

    const confirmed = await api('/auth/customers/login-code/link', { key: publishableKey, body: { token: link.token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.customer).toMatchObject({ id: registered.customer.id, email, emailVerified: true });
    expect((await api('/auth/customers/login-code/link', { key: publishableKey, body: { token: link.token } })).body.code).toBe('email_token_invalid');
  });

  it('leads account email links only to domains the owner proved, by a DNS TXT record or the well-known file', async () => {
    const { publishableKey } = await keys();
    const setDomains = (domains: string[]) => api(publicationPath(), { method: 'PATCH', session: tenant.session, body: { domains } });
    expect((await setDomains(['alpha.example', '127.0.0.1', 'beta.example', '*.gamma.example'])).body.verifiedDomains).toEqual(['alpha.example', '127.0.0.1']);
    const proofs = await api(`${publicationPath()}/domains`, { session: tenant.session });
    const token = expect.stringMatching(/^gatehouse-verification=[0-9a-f]{32}$/);
    expect(proofs.body.items).toEqual([
      { domain: 'alpha.example', token, txtRecord: '_gatehouse.alpha.example', fileUrl: 'https://alpha.example/.well-known/gatehouse-verification.txt', verified: true, verifiedAt: expect.any(String) },
      { domain: '127.0.0.1', token, txtRecord: '_gatehouse.127.0.0.1', fileUrl: 'https://127.0.0.1/.well-known/gatehouse-verification.txt', verified: true, verifiedAt: null },
      { domain: 'beta.example', token, txtRecord: '_gatehouse.beta.example', fileUrl: 'https://beta.example/.well-known/gatehouse-verification.txt', verified: false, verifiedAt: null },
      { domain: '*.gamma.example', token, txtRecord: '_gatehouse.gamma.example', fileUrl: 'https://gamma.example/.well-known/gatehouse-verification.txt', verified: false, verifiedAt: null },
    ]);

    const email = newEmail('proof');
    await register(publishableKey, email);
    await sink.nextTo(email);
    let sent = 1;
    const resetLink = async (returnUrl: string) => {
      expect((await api('/auth/customers/password-reset', { key: publishableKey, body: { email, returnUrl } })).status).toBe(202);
      return linkIn((await sink.nextTo(email, ++sent)).text, 'password_reset').url;
    };
    // Claimed but not proven: the link leads where it would without a returnUrl, the first proven domain.
    expect(await resetLink('https://beta.example/reset')).toMatch(/^https:\/\/alpha\.example\/#gatehouse-reset-password=/);

    // Nothing published, or another token: not verified.
    expect((await verifyDomain('beta.example')).body).toMatchObject({ status: 409, code: 'conflict', detail: expect.stringContaining('_gatehouse.beta.example') });
    expect((await verifyWithDns('beta.example', { '_gatehouse.beta.example': 'gatehouse-verification=0123456789abcdef0123456789abcdef' })).status).toBe(409);
    const verified = await verifyWithDns(' Beta.Example ', { '_gatehouse.beta.example': await proofToken('beta.example') });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ domain: 'beta.example', verified: true, verifiedAt: expect.any(String) });
    expect(await resetLink('https://beta.example/reset')).toMatch(/^https:\/\/beta\.example\/reset#gatehouse-reset-password=/);

    // A wildcard is proven on its base domain, here by the well-known file.
    expect(await resetLink('https://www.gamma.example/reset')).toMatch(/^https:\/\/alpha\.example\/#/);
    proofFiles.set('gamma.example', `gatehouse-verification=0123456789abcdef0123456789abcdef\n${await proofToken('*.gamma.example')}\n`);
    expect((await verifyDomain('*.gamma.example')).body).toMatchObject({ domain: '*.gamma.example', verified: true });
    expect(await resetLink('https://www.gamma.example/reset')).toMatch(/^https:\/\/www\.gamma\.example\/reset#gatehouse-reset-password=/);

    // Owners only; a domain not claimed is not found; a domain dropped and claimed again is proven again, with a new token.
    const editor = await staffSession(gateway.url, db.url, 'editor', tenant.publicationId);
    expect((await api(`${publicationPath()}/domains`, { session: editor.session })).status).toBe(403);
    expect((await verifyDomain('beta.example', editor.session)).status).toBe(403);
    expect((await verifyDomain('delta.example')).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await verifyDomain('not a domain')).body).toMatchObject({ status: 400, code: 'validation_failed' });
    const betaToken = await proofToken('beta.example');
    await setDomains(['alpha.example', '127.0.0.1']);
    expect((await setDomains(['alpha.example', '127.0.0.1', 'beta.example'])).body.verifiedDomains).toEqual(['alpha.example', '127.0.0.1']);
    expect(await proofToken('beta.example')).not.toBe(betaToken);
    expect((await setDomains(['alpha.example', '127.0.0.1'])).status).toBe(200);
  });

  it("keeps every account email link on the publication's own pages: a hostile returnUrl is refused and sends nothing, on every route that takes one", async () => {
    const otherName = `other-${randomUUID().slice(0, 6)}`;
    await anotherTenant(api, otherName);
    const otherDomain = `${otherName}.example`;
    const HOSTILE: Array<[string, unknown, 400 | 403]> = [
      ['a javascript: URL', 'javascript:alert(document.cookie)//alpha.example/', 400],
      ['a data: URL', 'data:text/html,<script>alert(1)</script>', 400],
      ['a relative path', '/welcome', 400],
      ['a scheme-relative URL', '//evil.example/welcome', 400],
      ['a user name and password', 'https://reader:secret@alpha.example/welcome', 400],
      ['the domain as a user name', 'https://alpha.example@evil.example/', 400],
      ['a backslash before the domain', 'https://evil.example\\@alpha.example/', 400],
      ['plain http off loopback', 'http://alpha.example/welcome', 400],
      ['over 2000 characters', `https://alpha.example/${'a'.repeat(2000)}`, 400],
      ['not a string', 42, 400],
      ['another site', 'https://evil.example/steal', 403],
      ['a suffix look-alike', 'https://alpha.example.evil.example/', 403],
      ['a prefix look-alike', 'https://evilalpha.example/', 403],
      ['the domain after a fragment', 'https://evil.example#@alpha.example', 403],
      ["another publication's domain", `https://${otherDomain}/account`, 403],
    ];
    const refusals = (answers: Array<{ status: number; body: { code?: string; errors?: Array<{ field: string }> } }>) =>
      answers.map(({ status, body }) => [status, body.code, status === 400 ? body.errors?.[0]?.field : undefined]);
    const expected = HOSTILE.map(([, , status]) => [status, status === 400 ? 'validation_failed' : 'url_not_in_publication', status === 400 ? 'returnUrl' : undefined]);
    const email = newEmail('hostile');
    const registered = await register((await keys()).publishableKey, email);
    await sink.nextTo(email);

    // Each route on a key of its own: a table's worth of calls stays within the account-email limit.
    for (const path of ['/auth/customers/password-reset', '/auth/customers/login-code']) {
      const key = (await keys()).publishableKey;
      const answers = [];
      for (const [, returnUrl] of HOSTILE) answers.push(await api(path, { key, body: { email, returnUrl } }));
      expect(refusals(answers)).toEqual(expected);
    }
    const verifyKey = (await keys()).publishableKey;
    const verifyAnswers = [];
    for (const [, returnUrl] of HOSTILE) verifyAnswers.push(await api('/auth/customers/verify-email/send', { key: verifyKey, token: registered.accessToken, body: { returnUrl } }));
    expect(refusals(verifyAnswers)).toEqual(expected);
    // A registration with one creates no one.
    const registerKey = (await keys()).publishableKey;
    const registerAnswers = [];
    const joiners = HOSTILE.map(() => newEmail('hostile-join'));
    for (const [i, [, returnUrl]] of HOSTILE.entries()) registerAnswers.push(await api('/auth/customers/register', { key: registerKey, body: { email: joiners[i], password: PASSWORD, name: 'Mallory', returnUrl } }));
    expect(refusals(registerAnswers)).toEqual(expected);
    const customers = (await api('/customers?limit=100', { session: tenant.session })).body.items as Array<{ email: string }>;
    expect(customers.filter((c) => joiners.includes(c.email))).toEqual([]);

    // None of them sent anything: the next message is the one asked for from a page of the site,
    // on a port of its own, with a path and a query; then one from a proven domain, its host's case folded.
    const page = `${siteUrl}/members/account?tab=profile`;
    expect((await api('/auth/customers/password-reset', { key: verifyKey, body: { email, returnUrl: page } })).status).toBe(202);
    const reset = linkIn((await sink.nextTo(email, 2)).text, 'password_reset');
    expect(reset.url).toBe(`${page}#gatehouse-reset-password=${reset.token}`);
    expect((await api('/auth/customers/login-code', { key: verifyKey, body: { email, returnUrl: 'https://ALPHA.example:8443/News/Story?id=7' } })).status).toBe(202);
    const signIn = linkIn((await sink.nextTo(email, 3)).text, 'login_code');
    expect(signIn.url).toBe(`https://alpha.example:8443/News/Story?id=7#gatehouse-login=${signIn.token}`);
    expect(sink.to(email)).toHaveLength(3);
  });

  it('answers a known and an unknown email alike, in similar time, and throttles per email either way', async () => {
    const { publishableKey } = await keys();
    // Two customers take turns, so that neither reaches the per-address limit while being timed.
    const known = [newEmail('known'), newEmail('known')];
    for (const email of known) {
      await register(publishableKey, email);
      await sink.nextTo(email);
    }

    for (const route of ['password-reset', 'login-code']) {
      const { secretKey } = await keys();
      const timings: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
      const bodies = new Set<string>();
      for (let i = 0; i < 6; i++) {
        for (const who of ['known', 'unknown'] as const) {
          const email = who === 'known' ? known[i % 2] : newEmail('nobody');
          const started = performance.now();
          const answer = await api(`/auth/customers/${route}`, { key: secretKey, body: { email } });
          timings[who].push(performance.now() - started);
          expect(answer.status).toBe(202);
          bodies.add(JSON.stringify(answer.body));
        }
      }
      expect([...bodies]).toEqual(['{"accepted":true}']);
      // The fastest answer of each: a loaded machine only adds time, so the work a known address costs shows here and the load does not.
      expect(Math.abs(Math.min(...timings.known) - Math.min(...timings.unknown))).toBeLessThan(50);
    }
    // Only the customers got mail: their verification, 3 resets and 3 codes each.
    await eventually(() => (known.every((email) => sink.to(email).length === 7) ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(known.map((email) => sink.to(email).length)).toEqual([7, 7]);

    // The gateway's limit of these routes: 20 calls a minute per key (and client IP for a publishable key).
    const { secretKey } = await keys();
    let limited = await api('/auth/customers/password-reset', { key: secretKey, body: { email: newEmail('nobody') } });
    expect(limited.headers.get('x-ratelimit-limit')).toBe('20');
    for (let calls = 1; limited.status === 202 && calls <= 20; calls++) {
      limited = await api('/auth/customers/password-reset', { key: secretKey, body: { email: newEmail('nobody') } });
    }
    expect(limited.status).toBe(429);

    // Identity's limit per address, whoever asks: 5 requests of a kind in 15 minutes, known address or not.
    const { secretKey: otherKey } = await keys();
    for (const [email, before] of [[known[0], 3], [newEmail('nobody'), 0]] as const) {
      for (let i = before; i < 5; i++) expect((await api('/auth/customers/password-reset', { key: otherKey, body: { email } })).status).toBe(202);
      const throttled = await api('/auth/customers/password-reset', { key: otherKey, body: { email } });
      expect(throttled.status).toBe(429);
      expect(throttled.body.code).toBe('rate_limited');
    }
  });

  it('uses the copy staff wrote for a language, and shows every message in the mailbox', async () => {
    const { publishableKey } = await keys();
    const edited = await api('/admin/email-templates/password_reset/de', {
      method: 'PUT',
      session: tenant.session,
      body: { subject: '{{publication}}: neues Passwort für {{name}}', body: 'Hier entlang, {{name}}.', action: 'Los' },
    });
    expect(edited.status).toBe(200);
    expect((await api('/admin/email-templates/password_reset/xx', { method: 'PUT', session: tenant.session, body: edited.body })).status).toBe(400);
    const email = newEmail('copy');
    await register(publishableKey, email, { locale: 'de' });
    await api('/auth/customers/password-reset', { key: publishableKey, body: { email } });
    const mail = await sink.nextTo(email, 2);
    expect(mail.subject).toBe('Alpha Times: neues Passwort für Ada Reader');
    expect(mail.text).toContain('Hier entlang, Ada Reader.');
    expect(mail.text).toContain('Los: https://alpha.example/#gatehouse-reset-password=');

    const templates = await api('/admin/email-templates', { session: tenant.session });
    expect(templates.body).toHaveLength(20);
    expect(templates.body.filter((t: { kind: string }) => t.kind.startsWith('gift_')).map((t: { kind: string; language: string }) => `${t.kind}/${t.language}`).sort()).toEqual([
      'gift_ending/de',
      'gift_ending/en',
      'gift_received/de',
      'gift_received/en',
    ]);
    expect(templates.body.find((t: { kind: string; language: string }) => t.kind === 'password_reset' && t.language === 'de')).toMatchObject({ customized: true });
    expect((await api('/admin/email-templates/password_reset/de', { method: 'DELETE', session: tenant.session })).status).toBe(204);

    const mailbox = await api('/admin/mailbox?limit=100', { session: tenant.session });
    const listed = mailbox.body.items.find((m: { to: string; kind: string }) => m.to === email && m.kind === 'password_reset');
    expect(listed).toMatchObject({ status: 'sent', delivery: 'smtp', language: 'de', subject: 'Alpha Times: neues Passwort für Ada Reader' });
    // Handed to the SMTP server: its content (and the token in it) is not kept.
    const one = await api(`/admin/mailbox/${listed.id}`, { session: tenant.session });
    expect(one.body).toMatchObject({ id: listed.id, text: null, html: null });
    expect((await api('/admin/mailbox', { key: publishableKey })).status).toBe(401);
  });

  it("keeps every publication's tokens, messages and copy to itself", async () => {
    const { publishableKey } = await keys();
    const other = await anotherTenant(api, `other-${randomUUID().slice(0, 6)}`);
    const email = newEmail('tenant');
    await register(publishableKey, email);
    await sink.nextTo(email);
    await api('/auth/customers/password-reset', { key: publishableKey, body: { email } });
    const { token } = linkIn((await sink.nextTo(email, 2)).text, 'password_reset');

    // The other publication has no such customer: it answers alike and sends nothing.
    expect((await api('/auth/customers/login-code', { key: other.keys.publishableKey, body: { email } })).status).toBe(202);
    const otherCopy = { subject: 'Other subject', body: 'Other body', action: 'Other action' };
    expect((await api('/admin/email-templates/password_reset/en', { method: 'PUT', session: other.session, body: otherCopy })).status).toBe(200);
    const refused = await api('/auth/customers/password-reset/confirm', { key: other.keys.publishableKey, body: { token, password: NEW_PASSWORD } });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('email_token_invalid');

    const ours = (await api('/admin/mailbox?limit=100', { session: tenant.session })).body.items.find((m: { to: string; kind: string }) => m.to === email && m.kind === 'password_reset');
    expect((await api('/admin/mailbox?limit=100', { session: other.session })).body.items).toEqual([]);
    expect((await api(`/admin/mailbox/${ours.id}`, { session: other.session })).status).toBe(404);
    expect((await api('/admin/email-templates', { session: tenant.session })).body.find((t: { kind: string; language: string }) => t.kind === 'password_reset' && t.language === 'en')).toMatchObject({ customized: false });

    // The token still works where it belongs, and no other message went out.
    expect((await api('/auth/customers/password-reset/confirm', { key: publishableKey, body: { token, password: NEW_PASSWORD } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(sink.to(email)).toHaveLength(2);
  });

  it('lets a registration wall require a verified email: the reader passes once verified and refreshed', async () => {
    const { publishableKey } = await keys();
    const wall = await api('/admin/paywalls', {
      session: tenant.session,
      body: { name: 'Verified readers', type: 'registration', config: { requireVerifiedEmail: true }, match: { include: ['/verified/**'] } },
    });
    expect(wall.status).toBe(201);
    const check = (token: string) => api(`/access/check?url=${encodeURIComponent('https://alpha.example/verified/story')}`, { key: publishableKey, token });
    const email = newEmail('wall');
    const registered = await register(publishableKey, email);
    expect((await check(registered.accessToken)).body).toMatchObject({ granted: false, reason: 'blocked', paywallRule: { paywallId: wall.body.id } });

    const { token } = linkIn((await sink.nextTo(email)).text, 'email_verification');
    expect((await api('/auth/customers/verify-email', { key: publishableKey, body: { token } })).status).toBe(200);
    const refreshed = await api('/auth/customers/refresh', { key: publishableKey, body: { refreshToken: registered.refreshToken } });
    expect(refreshed.body.customer.emailVerified).toBe(true);
    expect((await check(refreshed.body.accessToken)).body).toMatchObject({ granted: true, reason: 'registered' });
  });

  it('documents every account email route in /docs with its response schema', async () => {
    const doc = (await (await fetch(`${gateway.url}/docs/json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: { 'application/json'?: { schema?: object } } }> }>>;
    };
    const routes: Array<[string, string, string]> = [
      ['/api/v1/auth/customers/password-reset', 'post', '202'],
      ['/api/v1/auth/customers/password-reset/confirm', 'post', '200'],
      ['/api/v1/auth/customers/verify-email', 'post', '200'],
      ['/api/v1/auth/customers/verify-email/send', 'post', '202'],
      ['/api/v1/auth/customers/login-code', 'post', '202'],
      ['/api/v1/auth/customers/login-code/verify', 'post', '200'],
      ['/api/v1/auth/customers/login-code/link', 'post', '200'],
      ['/api/v1/admin/mailbox', 'get', '200'],
      ['/api/v1/admin/mailbox/{id}', 'get', '200'],
      ['/api/v1/admin/email-templates', 'get', '200'],
      ['/api/v1/admin/email-templates/{kind}/{language}', 'put', '200'],
    ];
    for (const [path, method, status] of routes) {
      expect({ path, schema: doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema }).toEqual({ path, schema: expect.any(Object) });
    }
  });

  it('shows the local mailbox to owners only, and neither it nor the stored row holds a code or a link (no SMTP_URL)', async () => {
    const { publishableKey } = await keys();
    const email = newEmail('mailbox');
    await register(publishableKey, email);
    await sink.nextTo(email);
    await identity.close();
    identity = await startIdentity({});
    try {
      expect((await api('/auth/customers/login-code', { key: publishableKey, body: { email } })).status).toBe(202);
      expect((await api('/auth/customers/password-reset', { key: publishableKey, body: { email } })).status).toBe(202);
      const kept = await eventually(async () => {
        const { body } = await api('/admin/mailbox?limit=100', { session: tenant.session });
        const mine = body.items.filter((m: { to: string; status: string; delivery: string }) => m.to === email && m.status === 'sent' && m.delivery === 'mailbox');
        return mine.length === 2 ? mine : undefined;
      }, 20_000);
      const viewer = await staffSession(gateway.url, db.url, 'viewer', tenant.publicationId);
      expect((await api('/admin/mailbox', { session: viewer.session })).body).toMatchObject({ status: 403, code: 'forbidden' });
      for (const { id, kind } of kept) {
        expect((await api(`/admin/mailbox/${id}`, { session: viewer.session })).body).toMatchObject({ status: 403, code: 'forbidden' });
        const shown = (await api(`/admin/mailbox/${id}`, { session: tenant.session })).body;
        expect(shown.text).toContain('[link sent to the reader, not kept]');
        if (kind === 'login_code') expect(shown.subject).toContain('••••••');
        const [row] = await querySchema(db.url, 'identity', 'SELECT secrets, subject, text_body, html_body FROM email_messages WHERE id = $1', [id]);
        expect(row.secrets).toBeNull();
        for (const stored of [row.subject, row.text_body, row.html_body, shown.subject, shown.text, shown.html]) {
          expect(stored).not.toMatch(/\b\d{6}\b/);
          expect(stored).not.toMatch(new RegExp(`#${EMAIL_LINK_PARAMETERS[kind as EmailKind]}=`));
        }
      }
    } finally {
      await identity.close();
      identity = await startIdentity({ SMTP_URL: sink.url });
    }
  }, 60_000);

  it('keeps a message through a service restart while the SMTP server is down, and sends it once', async () => {
    const { publishableKey } = await keys();
    const email = newEmail('restart');
    await register(publishableKey, email);
    await sink.nextTo(email);

    const downPort = await freePort();
    await identity.close();
    identity = await startIdentity({ SMTP_URL: `smtp://127.0.0.1:${downPort}` });
    expect((await api('/auth/customers/password-reset', { key: publishableKey, body: { email } })).status).toBe(202);
    const waiting = await eventually(async () => {
      const { body } = await api('/admin/mailbox?limit=100', { session: tenant.session });
      const message = body.items.find((m: { to: string; kind: string; attempts: number }) => m.to === email && m.kind === 'password_reset' && m.attempts > 0);
      return message?.status === 'pending' ? message : undefined;
    }, 20_000);
    expect(waiting.lastError).toMatch(/ECONNREFUSED|connect/i);
    const [stored] = await querySchema(db.url, 'identity', 'SELECT secrets::text AS secrets, subject, text_body, html_body FROM email_messages WHERE id = $1', [waiting.id]);

    await identity.close();
    const revived = await SmtpSink.start(downPort);
    try {
      identity = await startIdentity({ SMTP_URL: revived.url });
      const mail = await revived.nextTo(email, 1, 30_000);
      expect(mail.subject).toBe('Reset your Alpha Times password');
      const confirmed = await api('/auth/customers/password-reset/confirm', { key: publishableKey, body: { token: linkIn(mail.text, 'password_reset').token, password: NEW_PASSWORD } });
      expect(confirmed.status).toBe(200);
      // While it waited, its row held the token sealed only.
      expect(JSON.stringify(stored)).not.toContain(linkIn(mail.text, 'password_reset').token);
      expect(stored.secrets).toMatch(/^\{"sealed": "v1\./);
      // Later retries of the schedule would have come by now: there are none.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(revived.to(email)).toHaveLength(1);
      const { body } = await api(`/admin/mailbox/${waiting.id}`, { session: tenant.session });
      expect(body).toMatchObject({ status: 'sent', delivery: 'smtp' });
    } finally {
      await identity.close();
      identity = await startIdentity({ SMTP_URL: sink.url });
      await revived.close();
    }
  }, 90_000);
});
