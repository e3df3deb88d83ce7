import type { PaywallView } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { ACCESS_TIME, AccessSystem, DESKTOP, PHONE, SITE } from './support/access';

/** Each test works under a path prefix of its own, so the paywalls of one never cover the pages of another. */
const prefix = () => `/t-${randomUUID().slice(0, 8)}`;
const visitor = () => `visitor-${randomUUID()}`;

const ruleOf = (paywall: PaywallView) => ({
  paywallId: paywall.id,
  name: paywall.name,
  type: paywall.type,
  config: paywall.config,
  presentation: paywall.presentation,
  copy: paywall.copy,
  oneTimePriceIds: paywall.oneTimePriceIds,
});

describe('access check through the gateway (spec 2.4, 4.2; decisions E1-E7, H4)', () => {
  let system: AccessSystem;

  beforeAll(async () => {
    system = await AccessSystem.start({ COUNTRY_HEADER: 'CF-IPCountry' });
  }, 60_000);

  afterAll(() => system?.close());

  describe('the URL and the caller', () => {
    it('answers 400 naming url for a missing, relative or non-http URL', async () => {
      for (const url of [undefined, '/premium/story', 'news.example.com/story', 'ftp://news.example.com/a']) {
        const answer = await system.api(`/access/check${url === undefined ? '' : `?url=${encodeURIComponent(url)}`}`, { key: system.publishableKey });
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe('validation_failed');
        expect(new Set(answer.body.errors.map((e: { field: string }) => e.field))).toEqual(new Set(['url']));
      }
      const badQuery = await system.check({ url: '/a', device: 'television', country: 'Germany', userId: 'x'.repeat(129) });
      expect(badQuery.status).toBe(400);
      expect((badQuery.body as unknown as { errors: Array<{ field: string }> }).errors.map((e) => e.field).sort()).toEqual(['country', 'device', 'userId']);
      const unknown = await system.check({ url: '/a', colour: 'red' });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'colour' }] });
    });

    it("answers 403 url_not_in_publication for a host that is not one of the publication's domains, wildcards included", async () => {
      for (const url of ['https://elsewhere.example/a', 'https://www.news.example.com/a', 'https://blog.example/a', 'https://news.example.com.evil.test/a']) {
        const answer = await system.check({ url });
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({ code: 'url_not_in_publication' });
      }
      expect((await system.check({ url: 'https://team.blog.example/post' })).status).toBe(200);
      expect((await system.check({ url: 'http://NEWS.example.com:8080/a?b=c' })).status).toBe(200);
    });

    it('takes the publishable key only, and refuses a bad customer JWT with 401', async () => {
      expect((await system.check({ url: '/a' }, { key: system.secretKey })).body).toMatchObject({ status: 403, code: 'api_key_wrong_kind' });
      expect((await system.check({ url: '/a' }, { token: 'not.a.jwt' })).body).toMatchObject({ status: 401, code: 'token_invalid' });
    });

    it('grants a page no paywall covers: no_rule', async () => {
      expect(await system.decision({ url: '/free/story', userId: visitor() })).toEqual({ granted: true, reason: 'no_rule', customerId: null });
    });
  });

  describe('the visitor (decisions E2)', () => {
    it("uses the JWT's customer over the userId query", async () => {
      const reader = await system.reader();
      const result = await system.decision({ url: '/free/a', userId: 'someone-else' }, { token: reader.accessToken });
      expect(result.customerId).toBe(reader.customer.id);
      expect((await system.decision({ url: '/free/a', userId: reader.customer.id })).customerId).toBeNull();
    });
  });

  describe('rule types and reasons (decisions E5)', () => {
    it('hard: blocked, with the rule as configured, even for a logged-in customer (no subscription), without waiting on billing', async () => {
      const base = prefix();
      const paywall = await system.paywall({
        name: 'Premium',
        type: 'hard',
        match: { include: [`${base}/**`] },
        presentation: 'content_lock',
        copy: { heading: 'Subscribers only', ctaText: 'Subscribe' },
      });
      expect(await system.decision({ url: `${base}/story` })).toEqual({ granted: false, reason: 'blocked', paywallRule: ruleOf(paywall), customerId: null });
      const reader = await system.reader();
      const started = Date.now();
      const result = await system.decision({ url: `${base}/story` }, { token: reader.accessToken });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(result).toEqual({ granted: false, reason: 'blocked', paywallRule: ruleOf(paywall), customerId: reader.customer.id });
    });

    it('soft: granted, with the rule as a hint', async () => {
      const base = prefix();
      const paywall = await system.paywall({ name: 'Nudge', type: 'soft', match: { include: [`${base}/**`] }, presentation: 'sticky_bar' });
      expect(await system.decision({ url: `${base}/a` })).toEqual({ granted: true, reason: 'soft', paywallRule: ruleOf(paywall), customerId: null });
    });

    it('registration: any logged-in customer passes; a userId is not a login', async () => {
      const base = prefix();
      const paywall = await system.paywall({ name: 'Sign in', type: 'registration', match: { include: [`${base}/**`] } });
      expect(await system.decision({ url: `${base}/a`, userId: visitor() })).toMatchObject({ granted: false, reason: 'blocked', paywallRule: ruleOf(paywall) });
      const reader = await system.reader();
      expect(await system.decision({ url: `${base}/a` }, { token: reader.accessToken })).toEqual({ granted: true, reason: 'registered', customerId: reader.customer.id });
    });

    it('newsletter: passes once a newsletter_subscribe event of this visitor was accepted', async () => {
      const base = prefix();
      await system.paywall({ name: 'Newsletter', type: 'newsletter', match: { include: [`${base}/**`] } });
      const subscriber = visitor();
      expect(await system.decision({ url: `${base}/a`, userId: subscriber })).toMatchObject({ granted: false, reason: 'blocked' });
      const accepted = await system.track({ type: 'newsletter_subscribe', url: `${SITE}${base}/a`, userId: subscriber, data: { email: 'reader@example.com' } });
      expect(accepted.status).toBe(202);
      expect(await system.decision({ url: `${base}/b`, userId: subscriber })).toEqual({ granted: true, reason: 'newsletter_passed', customerId: null });
      expect(await system.decision({ url: `${base}/b`, userId: visitor() })).toMatchObject({ granted: false, reason: 'blocked' });
    });

    it('data: passes once a data_submit event carried every required field', async () => {
      const base = prefix();
      await system.paywall({
        name: 'Tell us about you',
        type: 'data',
        config: {
          fields: [
            { name: 'email', label: 'Email', type: 'email', required: true },
            { name: 'role', label: 'Your role', type: 'text', required: true },
            { name: 'company', label: 'Company', type: 'text', required: false },
          ],
        },
        match: { include: [`${base}/**`] },
      });
      const reader = visitor();
      const submit = (data: Record<string, unknown>) => system.track({ type: 'data_submit', url: `${SITE}${base}/a`, userId: reader, data });
      expect((await submit({ email: 'a@example.com', role: '  ', company: 'ACME' })).status).toBe(202);
      expect(await system.decision({ url: `${base}/a`, userId: reader })).toMatchObject({ granted: false, reason: 'blocked' });
      expect((await submit({ email: 'a@example.com', role: 'Editor' })).status).toBe(202);
      expect(await system.decision({ url: `${base}/a`, userId: reader })).toEqual({ granted: true, reason: 'data_passed', customerId: null });
    });

    it('metered: distinct URLs per calendar month, the same URL not counted twice, reset at the next period', async () => {
      const base = prefix();
      const paywall = await system.paywall({ name: 'Meter', type: 'metered', config: { limit: 2, period: 'month' }, match: { include: [`${base}/**`] } });
      const reader = visitor();
      const meter = (used: number) => ({ limit: 2, used, remaining: 2 - used, period: 'month', resetsAt: '2031-04-01T00:00:00.000Z' });
      expect(await system.decision({ url: `${base}/a`, userId: reader })).toEqual({ granted: true, reason: 'meter_allowance', customerId: null, meter: meter(1) });
      expect(await system.decision({ url: `${base}/a?utm_source=x#top`, userId: reader })).toMatchObject({ granted: true, meter: meter(1) });
      expect(await system.decision({ url: `${base}/b/`, userId: reader })).toMatchObject({ granted: true, reason: 'meter_allowance', meter: meter(2) });
      expect(await system.decision({ url: `${base}/c`, userId: reader })).toEqual({
        granted: false,
        reason: 'blocked',
        paywallRule: ruleOf(paywall),
        customerId: null,
        meter: meter(2),
      });
      // A page already counted this month stays open.
      expect(await system.decision({ url: `${base}/b`, userId: reader })).toMatchObject({ granted: true, reason: 'meter_allowance', meter: meter(2) });
      // Another visitor has a meter of their own; a visitor without identity has used the whole meter.
      expect(await system.decision({ url: `${base}/c`, userId: visitor() })).toMatchObject({ granted: true, meter: meter(1) });
      expect(await system.decision({ url: `${base}/a` })).toMatchObject({ granted: false, reason: 'blocked', meter: meter(2) });

      system.clock.set(new Date('2031-04-01T00:00:00.000Z'));
      try {
        expect(await system.decision({ url: `${base}/c`, userId: reader })).toMatchObject({
          granted: true,
          meter: { limit: 2, used: 1, remaining: 1, period: 'month', resetsAt: '2031-05-01T00:00:00.000Z' },
        });
      } finally {
        system.clock.set(ACCESS_TIME);
      }
    });

    it('metered by week and by day: resetsAt is next Monday, or the next midnight UTC', async () => {
      const base = prefix();
      await system.paywall({ name: 'Weekly', type: 'metered', config: { limit: 5, period: 'week' }, match: { include: [`${base}/week/**`] } });
      await system.paywall({ name: 'Daily', type: 'metered', config: { limit: 1, period: 'day' }, match: { include: [`${base}/day/**`] } });
      const reader = visitor();
      expect((await system.decision({ url: `${base}/week/a`, userId: reader })).meter).toEqual({
        limit: 5,
        used: 1,
        remaining: 4,
        period: 'week',
        resetsAt: '2031-03-17T00:00:00.000Z',
      });
      expect((await system.decision({ url: `${base}/day/a`, userId: reader })).meter?.resetsAt).toBe('2031-03-15T00:00:00.000Z');
    });

    it('concurrent checks of new pages cannot overrun the meter', async () => {
      const base = prefix();
      await system.paywall({ name: 'Meter', type: 'metered', config: { limit: 2, period: 'month' }, match: { include: [`${base}/**`] } });
      const reader = visitor();
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => system.decision({ url: `${base}/page-${i}`, userId: reader })));
      expect(results.filter((r) => r.granted)).toHaveLength(2);
      expect(results.filter((r) => !r.granted).every((r) => r.meter?.used === 2)).toBe(true);
    });

    it('the meter follows the reader: logging in keeps what the anonymous visitor used', async () => {
      const base = prefix();
      await system.paywall({ name: 'Meter', type: 'metered', config: { limit: 3, period: 'month' }, match: { include: [`${base}/**`] } });
      const device = visitor();
      await system.decision({ url: `${base}/a`, userId: device });
      await system.decision({ url: `${base}/b`, userId: device });
      const reader = await system.reader();
      // The first check with both the JWT and the visitor id links them: the customer has used 3 of 3.
      expect(await system.decision({ url: `${base}/c`, userId: device }, { token: reader.accessToken })).toMatchObject({
        granted: true,
        customerId: reader.customer.id,
        meter: { used: 3, remaining: 0 },
      });
      // On another device (no visitor id) the customer's meter is the same.
      expect(await system.decision({ url: `${base}/d` }, { token: reader.accessToken })).toMatchObject({ granted: false, reason: 'blocked', meter: { used: 3 } });
      expect(await system.decision({ url: `${base}/a` }, { token: reader.accessToken })).toMatchObject({ granted: true, meter: { used: 3 } });
      // A customer who never read anonymously starts with a fresh meter.
      const other = await system.reader();
      expect(await system.decision({ url: `${base}/d` }, { token: other.accessToken })).toMatchObject({ granted: true, meter: { used: 1 } });
    });
  });

  describe('which paywall applies (decisions E4)', () => {
    it('the enabled paywall of lowest priority whose include globs match and exclude globs do not', async () => {
      const base = prefix();
      const hard = await system.paywall({ name: 'Hard', type: 'hard', priority: 20, match: { include: [`${base}/**`] } });
      const soft = await system.paywall({ name: 'Soft', type: 'soft', priority: 10, match: { include: [`${base}/**`], exclude: [`${base}/free/**`] } });
      expect((await system.decision({ url: `${base}/story` })).paywallRule?.paywallId).toBe(soft.id);
      expect((await system.decision({ url: `${base}/free/story` })).paywallRule?.paywallId).toBe(hard.id);

      // Every change is seen by the very next check.
      expect((await system.admin(`/admin/paywalls/${soft.id}`, { method: 'PATCH', body: { priority: 30 } })).status).toBe(200);
      expect((await system.decision({ url: `${base}/story` })).paywallRule?.paywallId).toBe(hard.id);
      await system.admin(`/admin/paywalls/${hard.id}`, { method: 'PATCH', body: { enabled: false } });
      expect((await system.decision({ url: `${base}/story` })).paywallRule?.paywallId).toBe(soft.id);
      await system.admin(`/admin/paywalls/${soft.id}`, { method: 'PATCH', body: { type: 'metered', config: { limit: 1, period: 'day' } } });
      expect(await system.decision({ url: `${base}/story`, userId: visitor() })).toMatchObject({ reason: 'meter_allowance', meter: { limit: 1 } });
      expect((await system.admin(`/admin/paywalls/${soft.id}`, { method: 'DELETE' })).status).toBe(204);
      expect(await system.decision({ url: `${base}/story` })).toMatchObject({ granted: true, reason: 'no_rule' });
    });

    it('decides for the page a URL names however it is spelled, and a meter counts the spellings of one page once (issue 21)', async () => {
      const base = prefix();
      await system.paywall({ name: 'Spelled', type: 'hard', match: { include: [`${base}/Premium/**`], exclude: [`${base}/premium/free-*`] } });
      const spellings = [
        `${base}/premium/story`,
        `${base}/PREMIUM/Story`,
        `${base}/premium%2Fstory`,
        `${base}/%70remium/story`,
        `${base}/%2570remium/story`,
        `${base}//premium//story/`,
        `${base}/free/%2e%2e/premium/story`,
        `${base}/premium./story`,
        `${SITE.toUpperCase().replace('HTTPS', 'https')}.${base}/premium/story`,
      ];
      for (const url of spellings) expect([url, await system.decision({ url })]).toEqual([url, expect.objectContaining({ granted: false, reason: 'blocked' })]);
      expect(await system.decision({ url: `${base}/premium/free-sample` })).toMatchObject({ granted: true, reason: 'no_rule' });

      const metered = prefix();
      await system.paywall({ name: 'One a day', type: 'metered', config: { limit: 1, period: 'day' }, match: { include: [`${metered}/**`] } });
      const reader = visitor();
      expect(await system.decision({ url: `${metered}/story`, userId: reader })).toMatchObject({ granted: true, meter: { used: 1 } });
      for (const again of [`${metered}/Story`, `${metered}/%73tory/`, `${metered}/x/../story`]) {
        expect(await system.decision({ url: again, userId: reader })).toMatchObject({ granted: true, meter: { used: 1 } });
      }
      expect(await system.decision({ url: `${metered}/other`, userId: reader })).toMatchObject({ granted: false, meter: { used: 1 } });
    });
  });

  describe('segments (decisions E7)', () => {
    async function paywallFor(segment: object): Promise<{ base: string; paywall: PaywallView }> {
      const base = prefix();
      const created = await system.admin('/admin/segments', { body: { name: 'Segment', ...segment } });
      expect(created.status).toBe(201);
      const paywall = await system.paywall({ name: 'Segmented', type: 'hard', match: { include: [`${base}/**`] }, segmentId: created.body.id });
      return { base, paywall };
    }
    const applies = async (query: Record<string, string>, options = {}) => (await system.decision(query, options)).reason === 'blocked';

    it('device: from the User-Agent, which a stated ?device= does not override; the query only when no User-Agent is sent', async () => {
      const { base } = await paywallFor({ match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] });
      expect(await applies({ url: `${base}/a` }, { headers: { 'User-Agent': PHONE } })).toBe(true);
      expect(await applies({ url: `${base}/a` }, { headers: { 'User-Agent': DESKTOP } })).toBe(false);
      expect(await applies({ url: `${base}/a`, device: 'desktop' }, { headers: { 'User-Agent': PHONE } })).toBe(true);
      expect(await applies({ url: `${base}/a`, device: 'mobile' }, { headers: { 'User-Agent': DESKTOP } })).toBe(false);
      expect(await applies({ url: `${base}/a`, device: 'mobile' }, { headers: { 'User-Agent': '' } })).toBe(true);
    });

    it('country: with COUNTRY_HEADER set, only the CDN header counts: a reader cannot state ?country= past a "DE mobile" paywall', async () => {
      const { base } = await paywallFor({
        match: 'all',
        conditions: [
          { attribute: 'country', operator: 'in', value: ['DE', 'AT'] },
          { attribute: 'device', operator: 'eq', value: 'mobile' },
        ],
      });
      expect(await applies({ url: `${base}/a` }, { headers: { 'CF-IPCountry': 'de', 'User-Agent': PHONE } })).toBe(true);
      expect(await applies({ url: `${base}/a` }, { headers: { 'CF-IPCountry': 'FR', 'User-Agent': PHONE } })).toBe(false);
      expect(await applies({ url: `${base}/a`, country: 'US', device: 'desktop' }, { headers: { 'CF-IPCountry': 'DE', 'User-Agent': PHONE } })).toBe(true);
      expect(await applies({ url: `${base}/a`, country: 'at' }, { headers: { 'User-Agent': PHONE } })).toBe(false);
    });

    it("utm parameters: the checked page's own URL wins over the stated ones", async () => {
      const { base } = await paywallFor({ match: 'all', conditions: [{ attribute: 'utm_source', operator: 'eq', value: 'newsletter' }] });
      expect(await applies({ url: `${base}/a?utm_source=newsletter`, utm_source: 'social' })).toBe(true);
      expect(await applies({ url: `${base}/a?utm_source=social`, utm_source: 'newsletter' })).toBe(false);
      expect(await applies({ url: `${base}/a`, utm_source: 'newsletter' })).toBe(true);
    });

    it('referrer, utm parameters, path and authentication, with all and any', async () => {
      const { base } = await paywallFor({
        match: 'all',
        conditions: [
          { attribute: 'referrer', operator: 'contains', value: 'google.' },
          { attribute: 'utm_source', operator: 'eq', value: 'newsletter' },
          { attribute: 'path', operator: 'contains', value: '/deep/' },
          { attribute: 'authenticated', operator: 'eq', value: false },
        ],
      });
      const all = { url: `${base}/deep/a`, referrer: 'https://www.google.com/', utm_source: 'Newsletter' };
      expect(await applies(all)).toBe(true);
      expect(await applies({ ...all, url: `${base}/shallow` })).toBe(false);
      expect(await applies({ ...all, utm_source: 'social' })).toBe(false);
      const reader = await system.reader();
      expect(await applies(all, { token: reader.accessToken })).toBe(false);

      const any = await paywallFor({
        match: 'any',
        conditions: [
          { attribute: 'utm_medium', operator: 'eq', value: 'email' },
          { attribute: 'utm_campaign', operator: 'in', value: ['spring', 'summer'] },
        ],
      });
      expect(await applies({ url: `${any.base}/a`, utm_campaign: 'summer' })).toBe(true);
      expect(await applies({ url: `${any.base}/a`, utm_medium: 'email' })).toBe(true);
      expect(await applies({ url: `${any.base}/a`, utm_medium: 'social' })).toBe(false);
    });

    it('visit_count: the checks of this reader so far, this one included', async () => {
      const { base } = await paywallFor({ match: 'all', conditions: [{ attribute: 'visit_count', operator: 'gt', value: 2 }] });
      const reader = visitor();
      expect(await applies({ url: `${base}/a`, userId: reader })).toBe(false);
      expect(await applies({ url: `${base}/b`, userId: reader })).toBe(false);
      expect(await applies({ url: `${base}/c`, userId: reader })).toBe(true);
      expect(await applies({ url: `${base}/c` })).toBe(false);
    });

    it('subscriber: false while billing has nothing for the customer', async () => {
      const { base } = await paywallFor({ match: 'all', conditions: [{ attribute: 'subscriber', operator: 'eq', value: false }] });
      const reader = await system.reader();
      expect(await applies({ url: `${base}/a` }, { token: reader.accessToken })).toBe(true);
    });
  });

  describe('experiments (decisions H4)', () => {
    it('assigns a sticky variant whose overrides apply to paywallRule, while the experiment runs', async () => {
      const base = prefix();
      const paywall = await system.paywall({
        name: 'Meter',
        type: 'metered',
        config: { limit: 3, period: 'month' },
        match: { include: [`${base}/**`] },
        copy: { heading: 'Subscribe', ctaText: 'Go' },
      });
      const created = await system.admin('/admin/experiments', {
        body: {
          name: 'One or three',
          paywallId: paywall.id,
          variants: [
            { name: 'Control', weight: 1 },
            { name: 'Tight', weight: 1, overrides: { config: { limit: 1 }, presentation: 'inline', copy: { heading: 'Only one free article' } } },
          ],
        },
      });
      expect(created.status).toBe(201);
      const [control, tight] = created.body.variants as Array<{ id: string }>;
      expect((await system.admin(`/admin/experiments/${created.body.id}/start`, { method: 'POST' })).status).toBe(200);

      const seen = new Map<string, string>();
      for (let i = 0; i < 24 && seen.size < 2; i++) {
        const reader = visitor();
        const first = await system.decision({ url: `${base}/a`, userId: reader });
        expect(first.experiment).toEqual({ experimentId: created.body.id, variantId: expect.any(String) });
        expect((await system.decision({ url: `${base}/a`, userId: reader })).experiment).toEqual(first.experiment);
        seen.set(first.experiment!.variantId, reader);
      }
      expect([...seen.keys()].sort()).toEqual([control.id, tight.id].sort());

      const tightReader = seen.get(tight.id)!;
      expect(await system.decision({ url: `${base}/b`, userId: tightReader })).toEqual({
        granted: false,
        reason: 'blocked',
        paywallRule: {
          ...ruleOf(paywall),
          config: { limit: 1, period: 'month' },
          presentation: 'inline',
          copy: { heading: 'Only one free article', ctaText: 'Go' },
        },
        customerId: null,
        meter: { limit: 1, used: 1, remaining: 0, period: 'month', resetsAt: '2031-04-01T00:00:00.000Z' },
        experiment: { experimentId: created.body.id, variantId: tight.id },
      });
      expect(await system.decision({ url: `${base}/b`, userId: seen.get(control.id)! })).toMatchObject({ granted: true, meter: { limit: 3, used: 2 } });

      // A visitor without identity cannot be assigned, and sees the paywall as configured.
      expect((await system.decision({ url: `${base}/a` })).experiment).toBeUndefined();
      expect((await system.admin(`/admin/experiments/${created.body.id}/stop`, { method: 'POST' })).status).toBe(200);
      const after = await system.decision({ url: `${base}/c`, userId: tightReader });
      expect(after.experiment).toBeUndefined();
      expect(after).toMatchObject({ granted: true, meter: { limit: 3, used: 2 } });
    });
  });
});
