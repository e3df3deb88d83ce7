import { deleteEventStream } from '@gatehouse/bus';
import { adminService } from '@gatehouse/admin';
import { brandingService } from '@gatehouse/branding';
import type { RunningService } from '@gatehouse/runtime';
import { createTestDatabase, type TestDatabase, testNatsUrl, uniqueNamespace } from '@gatehouse/testing';
import { anotherTenant, apiOf, bootstrapTenant, STAFF_ENV, type Api, type Tenant } from './support/customers';
import { querySchema, startGatewayOverNats, startServiceOverNats, type TestGateway } from './support/system';

const DEFAULTS = {
  brandingMode: 'generic',
  brandColor: null,
  brandColorHover: null,
  logoUrl: null,
  borderRadius: null,
  fontFamily: null,
  authHeading: null,
  authDescription: null,
  authRegisterHeading: null,
  authRegisterDescription: null,
  paywallHeading: null,
  paywallDescription: null,
  paywallCtaText: null,
  // Beyond spec 2.7: copy per wall type and the meter notice's (docs/branding.md).
  softHeading: null,
  softDescription: null,
  softCtaText: null,
  registrationHeading: null,
  registrationDescription: null,
  registrationCtaText: null,
  newsletterHeading: null,
  newsletterDescription: null,
  newsletterCtaText: null,
  dataHeading: null,
  dataDescription: null,
  dataCtaText: null,
  meterNoticeText: null,
  meterRegisterText: null,
  customCss: null,
};

describe('branding (spec 2.7, 4.4, decisions G2)', () => {
  const namespace = uniqueNamespace();
  let db: TestDatabase;
  const services: RunningService[] = [];
  let gateway: TestGateway;
  let api: Api;
  let alpha: Tenant;
  let beta: Tenant;

  const put = (tenant: Tenant, body: unknown) => api('/branding/admin', { method: 'PUT', session: tenant.session, body });
  const publicBranding = (tenant: Tenant, headers: Record<string, string> = {}) => api('/branding', { key: tenant.keys.publishableKey, headers });

  beforeAll(async () => {
    db = await createTestDatabase();
    services.push(await startServiceOverNats(adminService, db.url, namespace, STAFF_ENV));
    services.push(await startServiceOverNats(brandingService, db.url, namespace));
    gateway = await startGatewayOverNats(namespace);
    api = apiOf(gateway.url);
    alpha = await bootstrapTenant(api);
    beta = await anotherTenant(api, 'beta');
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    for (const service of services) await service.close();
    await db?.drop();
    await deleteEventStream([testNatsUrl()], namespace);
  });

  it("answers every field (the spec's fourteen, each wall type's copy and the meter notice's), null where unset and mode generic, before anything was saved", async () => {
    const fresh = await anotherTenant(api, 'fresh');
    const answer = await publicBranding(fresh);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(DEFAULTS);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60');
    expect(answer.headers.get('vary')).toMatch(/X-API-Key/i);
    expect((await api('/branding/admin', { session: fresh.session })).body).toEqual(DEFAULTS);
  });

  it('refuses a secret key on the public route, and keys on the admin routes', async () => {
    expect((await api('/branding', { key: alpha.keys.secretKey })).body).toMatchObject({ status: 403, code: 'api_key_wrong_kind' });
    expect((await api('/branding')).body).toMatchObject({ status: 401, code: 'api_key_missing' });
    expect((await api('/branding/admin', { key: alpha.keys.secretKey })).body).toMatchObject({ status: 401, code: 'session_required' });
    const write = await api('/branding/admin', { method: 'PUT', key: alpha.keys.secretKey, body: { brandColor: '#000' } });
    expect(write.body).toMatchObject({ status: 401, code: 'session_required' });
  });

  it('changes only the fields sent, answers the whole configuration, and clears a field sent as null', async () => {
    const first = await put(alpha, { brandingMode: 'themed', brandColor: '#6C5CE7', paywallHeading: 'Support our journalism', borderRadius: '12' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...DEFAULTS, brandingMode: 'themed', brandColor: '#6C5CE7', paywallHeading: 'Support our journalism', borderRadius: '12' });

    const second = await put(alpha, { brandColorHover: '#abc', fontFamily: 'Georgia, "Times New Roman", serif' });
    expect(second.body).toEqual({ ...first.body, brandColorHover: '#abc', fontFamily: 'Georgia, "Times New Roman", serif' });

    const cleared = await put(alpha, { brandColor: null, paywallHeading: null });
    expect(cleared.body).toEqual({ ...second.body, brandColor: null, paywallHeading: null });
    expect((await publicBranding(alpha)).body).toEqual(cleared.body);
    expect((await api('/branding/admin', { session: alpha.session })).body).toEqual(cleared.body);

    const unchanged = await put(alpha, {});
    expect(unchanged.body).toEqual(cleared.body);
  });

  it('accepts every mode, the copy fields past their soft limits, and custom CSS of exactly 20 KiB', async () => {
    const longCopy = 'x'.repeat(300);
    const css = `.paywall{color:red}${' '.repeat(20 * 1024 - 19)}`;
    const saved = await put(beta, {
      brandingMode: 'custom',
      logoUrl: 'https://cdn.beta.example/logo.svg',
      authHeading: longCopy,
      authDescription: 'Sign in to keep reading',
      authRegisterHeading: 'Join us',
      authRegisterDescription: 'It takes a minute',
      paywallDescription: 'Unlimited access',
      paywallCtaText: 'Subscribe',
      newsletterHeading: 'Our morning briefing',
      newsletterCtaText: longCopy,
      meterNoticeText: '{remaining} of {limit} free stories left',
      customCss: css,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ brandingMode: 'custom', authHeading: longCopy, newsletterHeading: 'Our morning briefing', newsletterCtaText: longCopy, meterNoticeText: '{remaining} of {limit} free stories left', customCss: css });
    expect((await publicBranding(beta)).body).toMatchObject({ newsletterHeading: 'Our morning briefing', dataHeading: null });
    for (const brandingMode of ['generic', 'themed', 'custom']) expect((await put(beta, { brandingMode })).body.brandingMode).toBe(brandingMode);
  });

  it("refuses custom CSS that leaves the component's box or fetches from another site, and serves CSS stored unchecked confined", async () => {
    const hostile = ':host{position:fixed;inset:0;z-index:2147483647;background:url(https://tracker.example/p.png)} .paywall{color:red}';
    const before = (await api('/branding/admin', { session: beta.session })).body;
    for (const css of [hostile, '@import url(https://evil.example/a.css);', '.cover{position:absolute;top:0}', ':host{transform:translateY(-400px)}', ':host{ pos\\ition: fixed }']) {
      const refused = await put(beta, { brandingMode: 'custom', customCss: css });
      expect({ css, answer: refused.body }).toMatchObject({ css, answer: { status: 400, code: 'validation_failed', errors: [{ field: 'customCss' }] } });
    }
    expect((await api('/branding/admin', { session: beta.session })).body).toEqual(before);
    // The publication's own domains may serve its images and fonts; relative and data: URLs stay on the page.
    const allowed = '.paywall{background:url(https://beta.example/bg.png)} .logo{background:url(/local.png)} :host{color:#123}';
    expect((await put(beta, { brandingMode: 'custom', customCss: allowed })).body).toMatchObject({ customCss: allowed });

    // A row an earlier version stored unchecked reaches readers without what escapes.
    await querySchema(db.url, 'branding', "UPDATE branding_configurations SET custom_css = $1 WHERE publication_id = $2", [hostile, beta.publicationId]);
    const served = (await publicBranding(beta)).body.customCss as string;
    expect(served).toContain('.paywall{color:red}');
    expect(served).not.toMatch(/fixed|z-index|tracker\.example/);
    await put(beta, { customCss: null });
  });

  it('refuses invalid values with 400 naming the field, and changes nothing', async () => {
    const before = (await api('/branding/admin', { session: alpha.session })).body;
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ brandColor: 'red' }, 'brandColor'],
      [{ brandColor: '#12345' }, 'brandColor'],
      [{ brandColorHover: '#GGG' }, 'brandColorHover'],
      [{ borderRadius: '8px' }, 'borderRadius'],
      [{ borderRadius: 8 }, 'borderRadius'],
      [{ borderRadius: '-1' }, 'borderRadius'],
      [{ logoUrl: 'ftp://cdn.example/logo.png' }, 'logoUrl'],
      [{ logoUrl: 'not a url' }, 'logoUrl'],
      [{ customCss: 'a'.repeat(20 * 1024 + 1) }, 'customCss'],
      [{ customCss: 'é'.repeat(10 * 1024 + 1) }, 'customCss'],
      [{ brandingMode: 'fancy' }, 'brandingMode'],
      [{ brandingMode: null }, 'brandingMode'],
      [{ paywallCtaText: 42 }, 'paywallCtaText'],
      [{ paywallDescription: 'x'.repeat(2001) }, 'paywallDescription'],
      [{ newsletterHeading: 42 }, 'newsletterHeading'],
      [{ softDescription: ['Support us'] }, 'softDescription'],
      [{ meterNoticeText: 'x'.repeat(2001) }, 'meterNoticeText'],
      [{ fontFamily: 'serif; } body { display: none' }, 'fontFamily'],
      [{ brandColour: '#fff' }, 'brandColour'],
      [{ brandColor: '#fff', borderRadius: 'big' }, 'borderRadius'],
    ];
    for (const [body, field] of refusals) {
      const refused = await put(alpha, body);
      expect({ body, answer: refused.body }).toMatchObject({
        body,
        answer: { status: 400, code: 'validation_failed', errors: expect.arrayContaining([expect.objectContaining({ field })]) },
      });
    }
    for (const body of [[{ brandColor: '#fff' }], '"#fff"', '42']) {
      expect((await put(alpha, body)).body).toMatchObject({ status: 400, code: 'validation_failed' });
    }
    expect((await api('/branding/admin', { session: alpha.session })).body).toEqual(before);
  });

  it("keeps each publication's branding to itself", async () => {
    await put(alpha, { paywallCtaText: 'Alpha only' });
    await put(beta, { paywallCtaText: 'Beta only' });
    expect((await publicBranding(alpha)).body.paywallCtaText).toBe('Alpha only');
    expect((await publicBranding(beta)).body.paywallCtaText).toBe('Beta only');
    expect((await api('/branding/admin', { session: beta.session })).body.paywallCtaText).toBe('Beta only');
    expect((await api('/branding/admin', { session: alpha.session })).body.paywallCtaText).toBe('Alpha only');
  });

  it('answers 304 without a body while the ETag is current, and the new configuration once it changed', async () => {
    const first = await publicBranding(alpha);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await publicBranding(alpha)).headers.get('etag')).toBe(etag);

    const notModified = await publicBranding(alpha, { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeUndefined();
    expect(notModified.headers.get('etag')).toBe(etag);
    expect(notModified.headers.get('cache-control')).toBe('public, max-age=60');
    expect((await publicBranding(alpha, { 'If-None-Match': `"stale", W/${etag}` })).status).toBe(304);
    expect((await publicBranding(beta, { 'If-None-Match': etag })).status).toBe(200);

    await put(alpha, { paywallHeading: 'A new heading' });
    const changed = await publicBranding(alpha, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body.paywallHeading).toBe('A new heading');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('writes with If-Match only while nobody else changed the branding, and answers 412 otherwise, changing nothing', async () => {
    const read = await api('/branding/admin', { session: alpha.session });
    const etag = read.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const saved = await api('/branding/admin', { method: 'PUT', session: alpha.session, headers: { 'If-Match': etag }, body: { authHeading: 'Mine' } });
    expect(saved.status).toBe(200);
    const newTag = saved.headers.get('etag');
    expect(newTag).not.toBe(etag);

    const stale = await api('/branding/admin', { method: 'PUT', session: alpha.session, headers: { 'If-Match': etag }, body: { authHeading: 'Theirs' } });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 'precondition_failed', detail: expect.stringContaining('Someone else changed the branding') });
    expect((await api('/branding/admin', { session: alpha.session })).body.authHeading).toBe('Mine');
    expect((await api('/branding/admin', { method: 'PUT', session: alpha.session, headers: { 'If-Match': newTag ?? '' }, body: { authHeading: 'Theirs' } })).status).toBe(200);
  });

  it('lets exactly one of many saves made at once on the same copy through, whichever publication saved before or not', async () => {
    for (const staff of [alpha, beta]) {
      const etag = (await api('/branding/admin', { session: staff.session })).headers.get('etag') ?? '';
      const saves = await Promise.all(
        Array.from({ length: 8 }, (_, i) => api('/branding/admin', { method: 'PUT', session: staff.session, headers: { 'If-Match': etag }, body: { paywallHeading: `Save ${i}` } })),
      );
      expect(saves.map((save) => save.status).sort()).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
      const winner = saves.find((save) => save.status === 200)!;
      const stored = await api('/branding/admin', { session: staff.session });
      expect(stored.body.paywallHeading).toBe(winner.body.paywallHeading);
      expect(stored.headers.get('etag')).toBe(winner.headers.get('etag'));
    }
    // A tag that is not one of ours, or weak, names no copy: nothing is written.
    const etag = (await api('/branding/admin', { session: alpha.session })).headers.get('etag') ?? '';
    expect((await api('/branding/admin', { method: 'PUT', session: alpha.session, headers: { 'If-Match': `W/${etag}` }, body: { paywallHeading: 'Weak' } })).status).toBe(412);
    expect((await api('/branding/admin', { method: 'PUT', session: alpha.session, headers: { 'If-Match': '"r1"' }, body: { paywallHeading: 'Forged' } })).status).toBe(412);
    expect((await api('/branding/admin', { method: 'PUT', session: alpha.session, headers: { 'If-Match': '*' }, body: { paywallHeading: 'Any' } })).status).toBe(200);
  });
});
