import { Controller, Get, Module, Post } from '@nestjs/common';
import { adminService } from '@gatehouse/admin';
import type { RunningService } from '@gatehouse/runtime';
import { Auth, Caller, RateLimit, type Principal } from '@gatehouse/gateway';
import { identityService } from '@gatehouse/identity';
import { createTestDatabase, eventually, testRedisUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { createPrivateKey, randomBytes, randomUUID, sign } from 'node:crypto';
import { connect } from 'node:net';
import { SecretBox } from '@gatehouse/platform';
import { Client } from 'pg';
import { call, sessionFrom, type Answer } from './support/http';
import { ADMIN, addStaff, bootstrapEnv, staffSession } from './support/staff';
import { startGatewayOverNats, startServiceOverNats, type TestGateway } from './support/system';

/** Routes owned by later features, mounted here to exercise each credential rule of spec 5.1 at the edge. */
const who = (caller: Principal) => ({
  keyKind: caller.apiKey?.kind ?? null,
  publicationId: caller.apiKey?.publicationId ?? caller.session?.publicationId ?? null,
  customerId: caller.customer?.customerId ?? null,
  staffId: caller.session?.staffId ?? null,
});

@Controller('probe')
class ProbeController {
  @Get('publishable')
  @Auth('publishable')
  publishable(@Caller() caller: Principal) {
    return who(caller);
  }

  @Get('secret')
  @Auth('secret')
  secret(@Caller() caller: Principal) {
    return who(caller);
  }

  @Get('secret-or-customer')
  @Auth('secret-or-customer')
  secretOrCustomer(@Caller() caller: Principal) {
    return who(caller);
  }

  @Post('session-or-secret')
  @Auth('session-or-secret')
  sessionOrSecret(@Caller() caller: Principal) {
    return who(caller);
  }

  @Get('events')
  @Auth('publishable')
  @RateLimit('events')
  events(@Caller() caller: Principal) {
    return who(caller);
  }

  @Get('access')
  @Auth('publishable')
  @RateLimit('access-check')
  access(@Caller() caller: Principal) {
    return who(caller);
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

/** Identity's key sealing its signing keys, so a test can sign a token of its own with one. */
const SIGNING_KEYS_KEY = randomBytes(32).toString('base64');
const ENV = { SIGNING_KEYS_KEY, ...bootstrapEnv({ name: 'Alpha Times', domains: ['alpha.example'] }) };

interface KeyPair {
  name: string;
  publishableKey: string;
  secretKey: string;
}

interface AuthResult {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
  customer: { id: string; email: string; name: string };
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, number | string>;

/** Waits, when needed, so a burst of calls fits in one fixed 60-second window. */
async function startOfFreshWindow(secondsNeeded: number): Promise<void> {
  const left = 60 - (Math.floor(Date.now() / 1000) % 60);
  if (left < secondsNeeded) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

describe('security edge: keys, sessions, customer auth, rate limits', () => {
  const namespace = uniqueNamespace();
  let db: TestDatabase;
  const services: RunningService[] = [];
  let gateway: TestGateway;
  let base: string;
  let session: string;
  let alpha: KeyPair;
  let publicationA: string;

  const api = <T = any>(path: string, options: Parameters<typeof call>[2] = {}): Promise<Answer<T>> => call<T>(base, `/api/v1${path}`, options);

  async function createKeys(name: string, onSession = session): Promise<KeyPair> {
    const res = await api<KeyPair>('/admin/api-keys', { session: onSession, body: { name } });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function register(key: string, email = `reader-${randomUUID()}@example.com`): Promise<AuthResult> {
    const res = await api<AuthResult>('/auth/customers/register', { key, body: { email, password: 'reader-password', name: 'Reader' } });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** A token identity signed, for a customer of A, that expired a minute ago (what a client keeps after 15 minutes). */
  async function expiredAccessToken(): Promise<string> {
    const { accessToken } = await register(alpha.publishableKey);
    const [header, payload] = accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const input = `${header}.${Buffer.from(JSON.stringify({ ...claims, iat: now - 960, exp: now - 60 })).toString('base64url')}`;
    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    try {
      const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString());
      const { rows } = await sql.query('SELECT private_key_pem FROM identity.signing_keys WHERE kid = $1', [kid]);
      const signature = sign('sha256', Buffer.from(input), { key: createPrivateKey(SecretBox.fromBase64(SIGNING_KEYS_KEY).decrypt(rows[0].private_key_pem)), dsaEncoding: 'ieee-p1363' });
      const token = `${input}.${signature.toString('base64url')}`;
      expect((await api('/auth/customers/me', { key: alpha.publishableKey, token })).body).toMatchObject({ code: 'token_expired' });
      return token;
    } finally {
      await sql.end();
    }
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    services.push(await startServiceOverNats(identityService, db.url, namespace, ENV));
    services.push(await startServiceOverNats(adminService, db.url, namespace, ENV));
    gateway = await startGatewayOverNats(namespace, { REQUEST_TIMEOUT_MS: '3000' }, [ProbeModule]);
    base = gateway.url;
    const login = await api('/admin/session', { body: ADMIN });
    expect(login.status).toBe(200);
    session = sessionFrom(login);
    publicationA = login.body.publication.id;
    alpha = await createKeys('alpha-site');
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    for (const service of services) await service.close();
    await db?.drop();
  });

  describe('API keys', () => {
    it('refuses a missing, malformed, unknown or revoked key with 401', async () => {
      expect((await api('/probe/publishable')).body).toMatchObject({ status: 401, code: 'api_key_missing' });
      expect((await api('/probe/publishable', { key: 'not-a-key' })).body).toMatchObject({ status: 401, code: 'api_key_invalid' });
      expect((await api('/probe/publishable', { key: `pk_${'x'.repeat(32)}` })).body).toMatchObject({ status: 401, code: 'api_key_invalid' });
      const pair = await createKeys('soon-revoked');
      expect((await api('/probe/publishable', { key: pair.publishableKey })).status).toBe(200);
      expect((await api('/admin/api-keys/pairs/soon-revoked', { method: 'DELETE', session })).status).toBe(204);
      const revoked = await api('/probe/publishable', { key: pair.publishableKey });
      expect(revoked.status).toBe(401);
      expect(revoked.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(revoked.body).toMatchObject({ code: 'api_key_invalid' });
      expect((await api('/probe/secret', { key: pair.secretKey })).body).toMatchObject({ code: 'api_key_invalid' });
    });

    it('returns both keys once, lists them by prefix only, and never reuses a pair name', async () => {
      const pair = await createKeys('listed');
      expect(pair.publishableKey).toMatch(/^pk_[A-Za-z0-9_-]{32,}$/);
      expect(pair.secretKey).toMatch(/^sk_[A-Za-z0-9_-]{32,}$/);
      const list = await api<Array<Record<string, unknown>>>('/admin/api-keys', { session });
      const listed = list.body.filter((k) => k['name'] === 'listed');
      expect(listed.map((k) => k['kind']).sort()).toEqual(['publishable', 'secret']);
      expect(listed.map((k) => k['prefix']).sort()).toEqual([pair.publishableKey.slice(0, 12), pair.secretKey.slice(0, 12)]);
      expect(JSON.stringify(list.body)).not.toContain(pair.secretKey);
      expect((await api('/admin/api-keys', { session, body: { name: 'listed' } })).body).toMatchObject({ status: 409, code: 'conflict' });
      await api('/admin/api-keys/pairs/listed', { method: 'DELETE', session });
      expect((await api('/admin/api-keys', { session, body: { name: 'listed' } })).body).toMatchObject({ status: 409, code: 'conflict' });
    });

    it('revoking the publishable key of a pair leaves its secret key working', async () => {
      const pair = await createKeys('half-revoked');
      const keys = await api<Array<{ id: string; name: string; kind: string }>>('/admin/api-keys', { session });
      const publishable = keys.body.find((k) => k.name === 'half-revoked' && k.kind === 'publishable');
      expect((await api(`/admin/api-keys/${publishable?.id}`, { method: 'DELETE', session })).status).toBe(204);
      expect((await api('/probe/publishable', { key: pair.publishableKey })).status).toBe(401);
      expect((await api('/probe/secret', { key: pair.secretKey })).status).toBe(200);
    });

    it('a revocation takes effect at once on every running gateway', async () => {
      const second = await startGatewayOverNats(namespace, {}, [ProbeModule]);
      try {
        const pair = await createKeys('two-gateways');
        // Both gateways have the key cached as valid.
        expect((await call(second.url, '/api/v1/probe/publishable', { key: pair.publishableKey })).status).toBe(200);
        expect((await api('/probe/publishable', { key: pair.publishableKey })).status).toBe(200);
        expect((await api('/admin/api-keys/pairs/two-gateways', { method: 'DELETE', session })).status).toBe(204);
        expect((await api('/probe/publishable', { key: pair.publishableKey })).status).toBe(401);
        const started = Date.now();
        await eventually(async () => ((await call(second.url, '/api/v1/probe/publishable', { key: pair.publishableKey })).status === 401 ? true : undefined), 2_000);
        expect(Date.now() - started).toBeLessThan(2_000);
      } finally {
        await second.close();
      }
    });
  });

  describe('capability matrix (spec 5.1)', () => {
    it('access check and events: publishable key only', async () => {
      for (const path of ['/probe/access', '/probe/events', '/probe/publishable']) {
        expect((await api(path, { key: alpha.publishableKey })).body).toMatchObject({ keyKind: 'publishable', publicationId: publicationA });
        expect((await api(path, { key: alpha.secretKey })).body).toMatchObject({ status: 403, code: 'api_key_wrong_kind' });
      }
    });

    it('secret-only routes: secret key only', async () => {
      expect((await api('/probe/secret', { key: alpha.secretKey })).body).toMatchObject({ keyKind: 'secret' });
      expect((await api('/probe/secret', { key: alpha.publishableKey })).body).toMatchObject({ status: 403, code: 'api_key_wrong_kind' });
    });

    it('subscriptions me/checkout/portal: secret key, or publishable key only with a customer JWT', async () => {
      const reader = await register(alpha.publishableKey);
      expect((await api('/probe/secret-or-customer', { key: alpha.secretKey })).body).toMatchObject({ keyKind: 'secret', customerId: null });
      expect((await api('/probe/secret-or-customer', { key: alpha.publishableKey })).body).toMatchObject({ status: 401, code: 'customer_token_required' });
      expect((await api('/probe/secret-or-customer', { key: alpha.publishableKey, token: reader.accessToken })).body).toMatchObject({
        keyKind: 'publishable',
        customerId: reader.customer.id,
      });
      expect((await api('/probe/secret-or-customer', { key: alpha.publishableKey, token: 'x.y.z' })).body).toMatchObject({ status: 401, code: 'token_invalid' });
    });

    it('customer auth: register, login, refresh, logout and me with either key', async () => {
      for (const key of [alpha.publishableKey, alpha.secretKey]) {
        const email = `both-${randomUUID()}@example.com`;
        const registered = await register(key, email);
        const login = await api<AuthResult>('/auth/customers/login', { key, body: { email, password: 'reader-password' } });
        expect(login.status).toBe(200);
        const refreshed = await api<AuthResult>('/auth/customers/refresh', { key, body: { refreshToken: login.body.refreshToken } });
        expect(refreshed.status).toBe(200);
        const me = await api('/auth/customers/me', { key, token: refreshed.body.accessToken });
        expect(me.status).toBe(200);
        expect(me.body).toMatchObject({ id: registered.customer.id, email, name: 'Reader' });
        expect(typeof me.body.createdAt).toBe('string');
        expect((await api('/auth/customers/logout', { key, body: { refreshToken: refreshed.body.refreshToken } })).status).toBe(204);
      }
    });

    it('logout everywhere ends every session of the customer, and only with a live token of theirs', async () => {
      const email = `everywhere-${randomUUID()}@example.com`;
      const first = await register(alpha.publishableKey, email);
      const login = () => api<AuthResult>('/auth/customers/login', { key: alpha.publishableKey, body: { email, password: 'reader-password' } });
      const [second, third] = [(await login()).body, (await login()).body];
      const refresh = (refreshToken: string) => api<AuthResult>('/auth/customers/refresh', { key: alpha.publishableKey, body: { refreshToken } });
      const someoneElse = await register(alpha.publishableKey);
      // A used token (the first, once refreshed) signs nobody out everywhere: only its own family ends.
      const rotated = (await refresh(first.refreshToken)).body;
      expect((await api('/auth/customers/logout', { key: alpha.publishableKey, body: { refreshToken: first.refreshToken, everywhere: true } })).status).toBe(204);
      expect((await refresh(rotated.refreshToken)).status).toBe(401);
      const kept = await refresh(second.refreshToken);
      expect(kept.status).toBe(200);
      expect((await api('/auth/customers/logout', { key: alpha.publishableKey, body: { refreshToken: kept.body.refreshToken, everywhere: 'yes' } })).body).toMatchObject({
        status: 400,
        errors: [{ field: 'everywhere' }],
      });
      expect((await api('/auth/customers/logout', { key: alpha.publishableKey, body: { refreshToken: kept.body.refreshToken, everywhere: true } })).status).toBe(204);
      for (const token of [kept.body.refreshToken, third.refreshToken]) expect((await refresh(token)).body).toMatchObject({ status: 401, code: 'refresh_token_invalid' });
      // Another customer keeps their session.
      expect((await refresh(someoneElse.refreshToken)).status).toBe(200);
    });

    it("a publishable key alone never reaches a customer's data", async () => {
      expect((await api('/auth/customers/me', { key: alpha.publishableKey })).body).toMatchObject({ status: 401, code: 'customer_token_required' });
    });

    it('customers (H3): admin session or secret key, never a publishable key', async () => {
      expect((await api('/probe/session-or-secret', { method: 'POST', session })).body).toMatchObject({ publicationId: publicationA, staffId: expect.any(String) });
      expect((await api('/probe/session-or-secret', { method: 'POST', key: alpha.secretKey })).body).toMatchObject({ keyKind: 'secret' });
      expect((await api('/probe/session-or-secret', { method: 'POST', key: alpha.publishableKey })).body).toMatchObject({ status: 403, code: 'api_key_wrong_kind' });
      expect((await api('/probe/session-or-secret', { method: 'POST' })).body).toMatchObject({ status: 401, code: 'session_required' });
    });

    it('admin routes need a valid session', async () => {
      expect((await api('/admin/api-keys')).body).toMatchObject({ status: 401, code: 'session_required' });
      expect((await api('/admin/api-keys', { session: 'forged' })).body).toMatchObject({ status: 401, code: 'session_required' });
      expect((await api('/admin/api-keys', { key: alpha.secretKey })).body).toMatchObject({ status: 401, code: 'session_required' });
    });
  });

  describe('customer tokens', () => {
    it('issues 15-minute ES256 access tokens with expiresAt in epoch milliseconds', async () => {
      const result = await register(alpha.publishableKey);
      const header = JSON.parse(Buffer.from(result.accessToken.split('.')[0], 'base64url').toString());
      const claims = claimsOf(result.accessToken);
      expect(header).toMatchObject({ alg: 'ES256', kid: expect.any(String) });
      expect(Number(claims['exp']) - Number(claims['iat'])).toBe(900);
      expect(result.expiresAt).toBe(Number(claims['exp']) * 1000);
      expect(claims).toMatchObject({ sub: result.customer.id, pub: publicationA });
      const jwks = await api('/auth/.well-known/jwks.json');
      expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toContain(header.kid);
    });

    it('rejects a tampered token and an unsigned one', async () => {
      const { accessToken } = await register(alpha.publishableKey);
      const [h, p, s] = accessToken.split('.');
      const forgedClaims = Buffer.from(JSON.stringify({ ...claimsOf(accessToken), sub: randomUUID() })).toString('base64url');
      expect((await api('/auth/customers/me', { key: alpha.publishableKey, token: `${h}.${forgedClaims}.${s}` })).body).toMatchObject({ code: 'token_invalid' });
      const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      expect((await api('/auth/customers/me', { key: alpha.publishableKey, token: `${none}.${p}.` })).body).toMatchObject({ code: 'token_invalid' });
    });

    it('rotates refresh tokens; a used one presented again within the grace window loses without revoking the winner', async () => {
      const first = await register(alpha.publishableKey);
      const second = await api<AuthResult>('/auth/customers/refresh', { key: alpha.publishableKey, body: { refreshToken: first.refreshToken } });
      expect(second.status).toBe(200);
      expect(second.body.refreshToken).not.toBe(first.refreshToken);
      const again = await api('/auth/customers/refresh', { key: alpha.publishableKey, body: { refreshToken: first.refreshToken } });
      expect(again.body).toMatchObject({ status: 401, code: 'token_invalid' });
      const newest = await api('/auth/customers/refresh', { key: alpha.publishableKey, body: { refreshToken: second.body.refreshToken } });
      expect(newest.status).toBe(200);
    });

    it('four concurrent refreshes of one token: one winner, whose tokens keep working (decisions D3)', async () => {
      const { refreshToken } = await register(alpha.publishableKey);
      const answers = await Promise.all([1, 2, 3, 4].map(() => api<AuthResult>('/auth/customers/refresh', { key: alpha.publishableKey, body: { refreshToken } })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401]);
      for (const loser of answers.filter((a) => a.status === 401)) expect(loser.body).toMatchObject({ code: 'token_invalid' });
      const winner = answers.find((a) => a.status === 200)!.body;
      expect((await api('/auth/customers/me', { key: alpha.publishableKey, token: winner.accessToken })).status).toBe(200);
      const next = await api<AuthResult>('/auth/customers/refresh', { key: alpha.publishableKey, body: { refreshToken: winner.refreshToken } });
      expect(next.status).toBe(200);
      expect((await api('/auth/customers/me', { key: alpha.publishableKey, token: next.body.accessToken })).status).toBe(200);
    });

    it('login, register and refresh ignore a bearer header, expired or garbage', async () => {
      const email = `bearer-${randomUUID()}@example.com`;
      const expired = await expiredAccessToken();
      for (const token of [expired, 'garbage']) {
        const registered = await api<AuthResult>('/auth/customers/register', {
          key: alpha.publishableKey,
          token,
          body: { email: `${token.length}-${email}`, password: 'reader-password', name: 'Reader' },
        });
        expect(registered.status).toBe(201);
        const login = await api<AuthResult>('/auth/customers/login', { key: alpha.publishableKey, token, body: { email: `${token.length}-${email}`, password: 'reader-password' } });
        expect(login.status).toBe(200);
        const refreshed = await api('/auth/customers/refresh', { key: alpha.publishableKey, token, body: { refreshToken: login.body.refreshToken } });
        expect(refreshed.status).toBe(200);
      }
    });

    it('logout revokes the refresh token', async () => {
      const { refreshToken } = await register(alpha.publishableKey);
      expect((await api('/auth/customers/logout', { key: alpha.publishableKey, body: { refreshToken } })).status).toBe(204);
      expect((await api('/auth/customers/refresh', { key: alpha.publishableKey, body: { refreshToken } })).body).toMatchObject({ code: 'refresh_token_invalid' });
      expect((await api('/auth/customers/logout', { key: alpha.publishableKey, body: { refreshToken: 'never-issued' } })).status).toBe(204);
    });

    it('answers a wrong password and an unknown email identically', async () => {
      const email = `known-${randomUUID()}@example.com`;
      await register(alpha.publishableKey, email);
      const wrong = await api('/auth/customers/login', { key: alpha.publishableKey, body: { email, password: 'wrong-password' } });
      const unknown = await api('/auth/customers/login', { key: alpha.publishableKey, body: { email: `nobody-${randomUUID()}@example.com`, password: 'wrong-password' } });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(wrong.status);
      expect(unknown.body).toEqual(wrong.body);
      expect(wrong.body).toMatchObject({ code: 'invalid_credentials' });
    });

    it('validates registration fields and answers a duplicate email with 409', async () => {
      const bad = await api('/auth/customers/register', { key: alpha.publishableKey, body: { email: 'nope', password: 'short', name: '' } });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('validation_failed');
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'name', 'password']);
      const email = `dup-${randomUUID()}@example.com`;
      await register(alpha.publishableKey, email);
      const dup = await api('/auth/customers/register', { key: alpha.publishableKey, body: { email: email.toUpperCase(), password: 'reader-password', name: 'Again' } });
      expect(dup.body).toMatchObject({ status: 409, code: 'email_taken' });
    });
  });

  describe('HTTP edge (decisions B)', () => {
    const login = (body: string, contentType = 'application/json') =>
      api('/auth/customers/login', { key: alpha.publishableKey, body, headers: { 'Content-Type': contentType } });

    it('answers malformed JSON, unknown fields and wrong types with 400 validation_failed', async () => {
      expect((await login('{"email": ')).body).toMatchObject({ status: 400, code: 'validation_failed' });
      expect((await login('{"__proto__": {"admin": true}, "email": "a@example.com", "password": "password-1"}')).body).toMatchObject({
        status: 400,
        code: 'validation_failed',
      });
      const unknown = await login(JSON.stringify({ email: 'a@example.com', password: 'password-1', admin: true }));
      expect(unknown.body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'admin' }] });
      const wrongType = await login(JSON.stringify({ email: 42, password: ['x'] }));
      expect(wrongType.status).toBe(400);
      expect(new Set(wrongType.body.errors.map((e: { field: string }) => e.field))).toEqual(new Set(['email', 'password']));
    });

    it('answers a body that is not JSON with 415 and one over 100 KiB with 413', async () => {
      expect((await login('email=a', 'text/plain')).body).toMatchObject({ status: 415, code: 'unsupported_media_type' });
      expect((await login('email=a', 'application/x-www-form-urlencoded')).body).toMatchObject({ status: 415, code: 'unsupported_media_type' });
      const huge = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(101 * 1024) });
      const tooLarge = await login(huge);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toMatchObject({ code: 'payload_too_large' });
      expect(tooLarge.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });

    it("lets publishers' pages call with a key from any origin, without cookies (CORS)", async () => {
      const preflight = await api('/access/check', {
        method: 'OPTIONS',
        origin: 'https://reader.example',
        headers: { 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key, authorization' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://reader.example');
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/X-API-Key.*Authorization/);
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      const actual = await api('/probe/publishable', { key: alpha.publishableKey, origin: 'https://reader.example' });
      expect(actual.status).toBe(200);
      expect(actual.headers.get('access-control-allow-origin')).toBe('https://reader.example');
      expect(actual.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining/);
      expect(actual.headers.get('vary')).toMatch(/Origin/);
    });

    it('answers what the HTTP parser refuses (431, malformed, a body trickled past REQUEST_TIMEOUT_MS) as problem details with a request id', async () => {
      const { port } = new URL(base);
      const raw = (request: string, keepOpenMs = 0) =>
        new Promise<{ text: string; ms: number }>((resolve, reject) => {
          const started = Date.now();
          const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('error', reject);
          socket.on('close', () => resolve({ text, ms: Date.now() - started }));
          if (keepOpenMs) setTimeout(() => socket.destroy(), keepOpenMs);
        });
      const problemIn = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

      const huge = await raw(`GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(huge.text).toMatch(/^HTTP\/1\.1 431 /);
      expect(huge.text).toMatch(/\r\nContent-Type: application\/problem\+json/i);
      expect(huge.text).toMatch(/\r\nX-Request-Id: [\w-]+/i);
      expect(problemIn(huge.text)).toMatchObject({ status: 431, code: 'headers_too_large' });

      const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
      expect(garbage.text).toMatch(/^HTTP\/1\.1 400 /);
      expect(problemIn(garbage.text)).toMatchObject({ status: 400, code: 'validation_failed' });

      // Headers and one byte of a 100-byte body, then nothing: the gateway answers and closes, long before the client would give up.
      const slow = await raw(`POST /api/v1/auth/customers/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`, 30_000);
      expect(slow.ms).toBeLessThan(15_000);
      expect(slow.text).toMatch(/^HTTP\/1\.1 408 /);
      expect(problemIn(slow.text)).toMatchObject({ status: 408, code: 'request_timeout' });
    }, 40_000);

    it('gives /docs and /docs/json the rate-limit headers and a policy that forbids framing', async () => {
      for (const path of ['/docs', '/docs/json']) {
        const page = await call(base, path);
        expect(page.status).toBe(200);
        expect(page.headers.get('x-ratelimit-limit')).toBe('200');
        expect(Number(page.headers.get('x-ratelimit-remaining'))).toBeLessThan(200);
        expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
        expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/);
      }
      // npm test builds the dashboard (build:web) before the tests, so the gateway serves it.
      const dashboard = await call(base, '/dashboard/');
      expect(dashboard.status).toBe(200);
      expect(dashboard.headers.get('x-ratelimit-limit')).toBe('200');
      expect(dashboard.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    });

    it('documents every route with its credentials in /docs', async () => {
      const doc = (await call(base, '/docs/json')).body as { paths: Record<string, Record<string, { security?: object[]; responses: Record<string, unknown> }>> };
      const me = doc.paths['/api/v1/auth/customers/me']['get'];
      expect(me.security).toEqual(expect.arrayContaining([{ apiKey: [] }, { customerJwt: [] }]));
      expect(Object.keys(me.responses)).toEqual(expect.arrayContaining(['200', '401', '429']));
      expect(doc.paths['/api/v1/admin/api-keys']['post'].security).toEqual([{ adminSession: [] }]);
      expect(Object.keys(doc.paths['/api/v1/admin/api-keys']['post'].responses)).toEqual(expect.arrayContaining(['201', '401', '403', '409']));
    });
  });

  describe('rate limits', () => {
    it('puts the three headers on every response, refusals included', async () => {
      const answers = [await api('/probe/publishable', { key: alpha.publishableKey }), await api('/probe/publishable'), await api('/no-such-route')];
      expect(answers.map((a) => a.status)).toEqual([200, 401, 404]);
      for (const answer of answers) {
        expect(Number(answer.headers.get('x-ratelimit-limit'))).toBe(200);
        expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
        const reset = Number(answer.headers.get('x-ratelimit-reset'));
        expect(reset).toBeGreaterThan(0);
        expect(reset).toBeLessThanOrEqual(60);
      }
    });

    it('answers the 201st events call of one identity within a window with 429 and Retry-After', async () => {
      const pair = await createKeys('events-burst');
      await startOfFreshWindow(20);
      const statuses: number[] = [];
      for (let i = 0; i < 200; i++) statuses.push((await api('/probe/events', { key: pair.publishableKey })).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const limited = await api('/probe/events', { key: pair.publishableKey });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 'rate_limited' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('x-ratelimit-limit')).toBe('200');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      // Another identity (the secret key of the same pair) keeps its own budget.
      expect((await api('/probe/secret', { key: pair.secretKey })).status).toBe(200);
    });

    it('answers the 1,001st access check with 429', async () => {
      const pair = await createKeys('access-burst');
      await startOfFreshWindow(30);
      const answers = await Promise.all(Array.from({ length: 1000 }, () => api('/probe/access', { key: pair.publishableKey })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1000);
      const limited = await api('/probe/access', { key: pair.publishableKey });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }, 90_000); // up to 30 s waiting for a fresh window, then a thousand checks

    it('two gateways on one Redis share the count', async () => {
      // Generous: on a loaded machine a stalled event loop would count as a slow Redis and fall back to memory.
      const env = { REDIS_URL: testRedisUrl(), REDIS_TIMEOUT_MS: '2000' };
      const [one, two] = await Promise.all([startGatewayOverNats(namespace, env, [ProbeModule]), startGatewayOverNats(namespace, env, [ProbeModule])]);
      try {
        const pair = await createKeys('shared-budget');
        await startOfFreshWindow(20);
        for (let i = 0; i < 200; i++) {
          const answer = await call(i % 2 ? one.url : two.url, '/api/v1/probe/events', { key: pair.publishableKey });
          expect(answer.status).toBe(200);
        }
        expect((await call(one.url, '/api/v1/probe/events', { key: pair.publishableKey })).status).toBe(429);
        expect((await call(two.url, '/api/v1/probe/events', { key: pair.publishableKey })).status).toBe(429);
      } finally {
        await one.close();
        await two.close();
      }
    });
  });

  describe('behind proxies (TRUST_PROXY)', () => {
    /** 200 calls of a path no route matches, counted by client IP, then one more: its status. */
    async function exhaust(url: string, forwardedFor: (i: number) => string): Promise<number> {
      await startOfFreshWindow(20);
      for (let i = 0; i < 200; i++) {
        const answer = await call(url, '/api/v1/no-such-route', { headers: { 'X-Forwarded-For': forwardedFor(i) } });
        expect(answer.status).toBe(404);
      }
      return (await call(url, '/api/v1/no-such-route', { headers: { 'X-Forwarded-For': forwardedFor(200) } })).status;
    }

    it('with a hop count, takes the entry the trusted proxy wrote, not one the client wrote before it', async () => {
      const proxied = await startGatewayOverNats(namespace, { TRUST_PROXY: '1' });
      try {
        // The client writes 203.0.113.<i>; the proxy in front (here: the test, on 127.0.0.1) appends what it saw.
        expect(await exhaust(proxied.url, (i) => `203.0.113.${i % 250}, 192.0.2.10`)).toBe(429);
        // Another client behind the same proxy keeps its own budget.
        expect((await call(proxied.url, '/api/v1/no-such-route', { headers: { 'X-Forwarded-For': '192.0.2.11' } })).status).toBe(404);
      } finally {
        await proxied.close();
      }
    });

    it('with a list of CIDR ranges, takes the right-most address outside them', async () => {
      const proxied = await startGatewayOverNats(namespace, { TRUST_PROXY: '127.0.0.0/8, 10.0.0.0/8' });
      try {
        expect(await exhaust(proxied.url, (i) => `203.0.113.${i % 250}, 198.51.100.20, 10.1.2.3`)).toBe(429);
        expect((await call(proxied.url, '/api/v1/no-such-route', { headers: { 'X-Forwarded-For': '198.51.100.21, 10.1.2.3' } })).status).toBe(404);
      } finally {
        await proxied.close();
      }
    });
  });

  describe('login throttles', () => {
    it('refuses an 11th staff login within 15 minutes for one account, the right password too, with Retry-After', async () => {
      const staff = await addStaff(db.url, 'admin', publicationA);
      for (let i = 0; i < 10; i++) {
        const wrong = await api('/admin/session', { body: { email: staff.email, password: `wrong-${i}-password` }, headers: { 'X-Forwarded-For': `203.0.113.${i}` } });
        expect(wrong.body).toMatchObject({ status: 401, code: 'invalid_credentials' });
      }
      const right = await api('/admin/session', { body: { email: staff.email, password: staff.password } });
      expect(right.body).toMatchObject({ status: 429, code: 'rate_limited' });
      const retryAfter = Number(right.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(800);
      expect(retryAfter).toBeLessThanOrEqual(900);
      // Other accounts are not held up.
      expect((await api('/admin/session', { body: ADMIN })).status).toBe(200);
    });

    it("answers a customer's 11th failed login with 429 and Retry-After", async () => {
      const email = `throttled-${randomUUID()}@example.com`;
      await register(alpha.publishableKey, email);
      for (let i = 0; i < 10; i++) {
        expect((await api('/auth/customers/login', { key: alpha.secretKey, body: { email, password: `wrong-${i}-password` } })).status).toBe(401);
      }
      const limited = await api('/auth/customers/login', { key: alpha.secretKey, body: { email, password: 'reader-password' } });
      expect(limited.body).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);
    });
  });

  describe('staff invitations (no password oracle)', () => {
    it("counts an invitation accepted with a guessed password in the victim's login throttle: the 11th answers 429, login too", async () => {
      const victim = await addStaff(db.url, 'admin', publicationA);
      // Any staff member may make a publication of their own and invite any address to it.
      const attacker = await staffSession(base, db.url, 'viewer');
      const own = await api('/admin/publications', { session: attacker.session, body: { name: 'Bait Weekly', domains: [`bait-${randomUUID()}.example`] } });
      expect(own.status).toBe(201);
      await api('/admin/session/publication', { method: 'PUT', session: attacker.session, body: { publicationId: own.body.id } });
      const invited = await api('/admin/team/invitations', { session: attacker.session, body: { email: victim.email, role: 'viewer' } });
      expect(invited.status).toBe(201);

      const preview = await api('/admin/invitations/preview', { body: { token: invited.body.token } });
      expect(preview.body).toEqual({ email: victim.email, role: 'viewer', publicationName: 'Bait Weekly' });

      // Not an oracle: the right password is refused exactly as a wrong one.
      const right = await api('/admin/invitations/accept', { body: { token: invited.body.token, name: 'x', password: victim.password } });
      expect(right.body).toMatchObject({ status: 401, code: 'invalid_credentials' });
      expect(right.headers.get('set-cookie')).toBeNull();
      for (let i = 1; i < 10; i++) {
        const wrong = await api('/admin/invitations/accept', { body: { token: invited.body.token, name: 'x', password: `guess-${i}-password` }, headers: { 'X-Forwarded-For': `198.51.100.${i}` } });
        expect(wrong.body).toMatchObject({ status: 401, code: 'invalid_credentials', detail: right.body.detail });
      }
      const eleventh = await api('/admin/invitations/accept', { body: { token: invited.body.token, name: 'x', password: 'guess-11-password' } });
      expect(eleventh.body).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(800);
      // The same throttle as staff login: the victim's own sign-in waits too, and the invitation is still open.
      const login = await api('/admin/session', { body: { email: victim.email, password: victim.password } });
      expect(login.body).toMatchObject({ status: 429, code: 'rate_limited' });
      expect((await api('/admin/invitations/preview', { body: { token: invited.body.token } })).status).toBe(200);
    });

    it("joins an existing account only through that account's own session, and a new one with a password", async () => {
      const member = await addStaff(db.url, 'admin');
      const invited = await api('/admin/team/invitations', { session, body: { email: member.email, role: 'viewer' } });
      const stranger = await staffSession(base, db.url, 'admin');
      const wrongSession = await api('/admin/invitations/accept', { session: stranger.session, body: { token: invited.body.token } });
      expect(wrongSession.body).toMatchObject({ status: 403, code: 'forbidden' });
      const signedIn = sessionFrom(await api('/admin/session', { body: { email: member.email, password: member.password } }));
      const joined = await api('/admin/invitations/accept', { session: signedIn, body: { token: invited.body.token } });
      expect(joined.body).toMatchObject({ staff: { email: member.email }, publication: { id: publicationA, role: 'viewer' } });
      expect((await api('/admin/session', { session: signedIn })).body.publication).toMatchObject({ id: publicationA, role: 'viewer' });

      const newcomer = `new-${randomUUID()}@example.com`;
      const second = await api('/admin/team/invitations', { session, body: { email: newcomer, role: 'viewer' } });
      const missing = await api('/admin/invitations/accept', { body: { token: second.body.token } });
      expect(missing.body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'name' }, { field: 'password' }] });
      const created = await api('/admin/invitations/accept', { body: { token: second.body.token, name: 'New Colleague', password: 'newcomer-password' } });
      expect(created.body).toMatchObject({ staff: { email: newcomer }, publication: { id: publicationA, role: 'viewer' } });
      expect(sessionFrom(created)).toBeTruthy();
    });
  });

  describe('dashboard sessions', () => {
    it('refuses a cookie-authenticated write from a foreign Origin with 403 csrf_failed', async () => {
      const foreign = await api('/admin/api-keys', { session, origin: 'https://evil.example', body: { name: 'csrf-try' } });
      expect(foreign.body).toMatchObject({ status: 403, code: 'csrf_failed' });
      const own = await api('/admin/api-keys', { session, origin: base, body: { name: 'csrf-ok' } });
      expect(own.status).toBe(201);
      expect((await api('/admin/api-keys', { session, origin: 'https://evil.example' })).status).toBe(200);
    });

    it("refuses a viewer's write with 403 forbidden and lets the viewer read", async () => {
      const viewer = await addStaff(db.url, 'viewer', publicationA);
      const login = await api('/admin/session', { body: { email: viewer.email, password: viewer.password } });
      expect(login.status).toBe(200);
      const viewerSession = sessionFrom(login);
      expect((await api('/admin/api-keys', { session: viewerSession })).status).toBe(200);
      expect((await api('/admin/api-keys', { session: viewerSession, body: { name: 'viewer-try' } })).body).toMatchObject({ status: 403, code: 'forbidden' });
      expect((await api('/admin/session', { method: 'DELETE', session: viewerSession })).status).toBe(204);
      expect((await api('/admin/session', { session: viewerSession })).body).toMatchObject({ status: 401, code: 'session_required' });
    });

    it('sets an HttpOnly SameSite=Lax session cookie and answers wrong credentials with 401', async () => {
      const login = await api('/admin/session', { body: ADMIN });
      expect(login.headers.get('set-cookie')).toMatch(/^service_session=[^;]+; HttpOnly; SameSite=Lax; Path=\//);
      expect(login.body).toMatchObject({ staff: { email: ADMIN.email }, publication: { id: publicationA, role: 'admin', domains: ['alpha.example'] } });
      const wrong = await api('/admin/session', { body: { ...ADMIN, password: 'nope-nope' } });
      const unknown = await api('/admin/session', { body: { email: 'ghost@example.com', password: 'nope-nope' } });
      expect(wrong.body).toMatchObject({ status: 401, code: 'invalid_credentials' });
      expect(unknown.body).toEqual(wrong.body);
    });
  });

  describe('publication isolation', () => {
    it('creates a publication for its creator, who becomes its admin', async () => {
      const created = await api('/admin/publications', { session, body: { name: 'Gamma Weekly', domains: ['Gamma.example', '*.gamma.example'] } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Gamma Weekly', domains: ['gamma.example', '*.gamma.example'], role: 'admin' });
      const list = await api('/admin/publications', { session });
      expect(list.body.items.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([publicationA, created.body.id]));
      const invalid = await api('/admin/publications', { session, body: { name: 'Bad', domains: ['not a host!'] } });
      expect(invalid.body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'domains' }] });
    });

    it('answers every id of another publication with 404', async () => {
      // Publication B and its admin, who has no role in A.
      const other = await addStaff(db.url, 'admin');
      const otherLogin = await api('/admin/session', { body: { email: other.email, password: other.password } });
      const otherSession = sessionFrom(otherLogin);
      const publicationB = other.publicationId;
      expect(otherLogin.body.publication.id).toBe(publicationB);
      const beta = await createKeys('beta-site', otherSession);
      const betaKeys = await api<Array<{ id: string }>>('/admin/api-keys', { session: otherSession });

      // A's staff cannot see, change or switch to B.
      expect((await api(`/admin/api-keys/${betaKeys.body[0].id}`, { method: 'DELETE', session })).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await api('/admin/api-keys/pairs/beta-site', { method: 'DELETE', session })).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await api(`/admin/publications/${publicationB}`, { method: 'PATCH', session, body: { name: 'Hijacked' } })).body).toMatchObject({ status: 404 });
      expect((await api('/admin/session/publication', { method: 'PUT', session, body: { publicationId: publicationB } })).body).toMatchObject({ status: 404 });
      expect((await api('/admin/api-keys/not-a-uuid', { method: 'DELETE', session })).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await api('/probe/publishable', { key: beta.publishableKey })).body).toMatchObject({ publicationId: publicationB });

      // B's customer tokens mean nothing with A's keys.
      const betaReader = await register(beta.publishableKey);
      expect((await api('/auth/customers/me', { key: alpha.publishableKey, token: betaReader.accessToken })).body).toMatchObject({ status: 401, code: 'token_invalid' });
      expect((await api('/auth/customers/refresh', { key: alpha.publishableKey, body: { refreshToken: betaReader.refreshToken } })).body).toMatchObject({
        status: 401,
        code: 'refresh_token_invalid',
      });
      // The same email registers separately in each publication.
      const email = `twice-${randomUUID()}@example.com`;
      await register(alpha.publishableKey, email);
      await register(beta.publishableKey, email);
      // A's staff still sees only A's keys.
      const alphaKeys = await api<Array<{ name: string }>>('/admin/api-keys', { session });
      expect(alphaKeys.body.map((k) => k.name)).not.toContain('beta-site');
    });
  });
});
