import { AccessCheckHandler } from '@gatehouse/access';
import { AccessRequests, type AccessCheckRequest, type AccessCheckResult } from '@gatehouse/contracts';
import { edgeMetrics } from '@gatehouse/platform';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DESKTOP } from './support/access';
import { call } from './support/http';
import { startGatewayOverNats, type TestGateway } from './support/system';
import { SITE, WholeSystem, type Reader } from './support/system-all';

/**
 * Issue 23: a write that changes what a check decides (paywalls, segments, experiments, the crawler
 * policy, products' entitlements, subscriptions) is seen by the very next check on every access
 * replica, and no write handler invalidates anything by hand: each writer adds its change notice
 * in its own transaction, published as that transaction commits.
 */
describe('every write route that changes a decision is seen by the next check on every access replica', () => {
  let system: WholeSystem;
  /** The access write patterns exercised below; the others change no decision (see the last test). */
  const exercised = new Set<string>();

  /** A second gateway on the same bus (issue 29): each answers checks from its own read models. */
  let second: TestGateway;

  beforeAll(async () => {
    system = await WholeSystem.start({ accessReplicas: 2 });
    second = await startGatewayOverNats(system.namespace);
  }, 180_000);
  afterAll(async () => {
    await second?.close();
    await system?.close();
  });

  const request = (path: string, extra: Partial<AccessCheckRequest>): AccessCheckRequest => ({
    publicationId: system.publicationId,
    domains: ['all.example'],
    page: { hostname: new URL(SITE).hostname, path },
    customerId: null,
    userId: 'visitor-1',
    attributes: {},
    trial: true,
    ...extra,
  });

  /** What each replica decides, asked directly (its check handler, as a request from the gateway would reach it). */
  async function decisions(path: string, extra: Partial<AccessCheckRequest> = {}): Promise<AccessCheckResult[]> {
    const replicas = system.accessReplicas;
    expect(replicas).toHaveLength(2);
    return Promise.all(replicas.map((replica) => replica.app.get(AccessCheckHandler).check(request(path, extra))));
  }
  /** The one reason every replica gives; fails when they disagree. */
  async function reason(path: string, extra: Partial<AccessCheckRequest> = {}): Promise<string> {
    const reasons = new Set((await decisions(path, extra)).map((decision) => decision.reason));
    expect(reasons.size).toBe(1);
    return [...reasons][0];
  }

  async function write<T = any>(pattern: string, path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
    const answer = await system.admin<T>(path, { body: {}, ...options });
    if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    exercised.add(pattern);
    return answer.body;
  }

  it('paywalls: created, changed, deleted', async () => {
    expect(await reason('/pw/a')).toBe('no_rule');
    const paywall = await write('CreatePaywall', '/admin/paywalls', { body: { name: 'PW', type: 'hard', match: { include: ['/pw/**'] } } });
    expect(await reason('/pw/a')).toBe('blocked');
    await write('UpdatePaywall', `/admin/paywalls/${paywall.id}`, { method: 'PATCH', body: { type: 'soft' } });
    expect(await reason('/pw/a')).toBe('soft');
    await write('UpdatePaywall', `/admin/paywalls/${paywall.id}`, { method: 'PATCH', body: { match: { include: ['/pw/**'], exclude: ['/pw/a'] } } });
    expect([await reason('/pw/a'), await reason('/pw/b')]).toEqual(['no_rule', 'soft']);
    await write('DeletePaywall', `/admin/paywalls/${paywall.id}`, { method: 'DELETE', body: undefined });
    expect(await reason('/pw/b')).toBe('no_rule');
    // The gateway's check lands on either replica: the same answer.
    expect((await system.decision({ url: '/pw/b' })).reason).toBe('no_rule');
  });

  it('segments: the conditions of a segment a paywall uses', async () => {
    const segment = await write('CreateSegment', '/admin/segments', { body: { name: 'French', match: 'all', conditions: [{ attribute: 'country', operator: 'eq', value: 'FR' }] } });
    await write('CreatePaywall', '/admin/paywalls', { body: { name: 'For the French', type: 'hard', match: { include: ['/fr/**'] }, segmentId: segment.id } });
    const french = { attributes: { country: 'FR' } };
    expect(await reason('/fr/a', french)).toBe('blocked');
    await write('UpdateSegment', `/admin/segments/${segment.id}`, { method: 'PATCH', body: { conditions: [{ attribute: 'country', operator: 'eq', value: 'DE' }] } });
    expect(await reason('/fr/a', french)).toBe('no_rule');
    expect(await reason('/fr/a', { attributes: { country: 'DE' } })).toBe('blocked');
  });

  it('experiments: started and stopped', async () => {
    const paywall = await write('CreatePaywall', '/admin/paywalls', { body: { name: 'Tested', type: 'hard', match: { include: ['/exp/**'] } } });
    const variants = [
      { name: 'Modal', weight: 50 },
      { name: 'Inline', weight: 50, overrides: { presentation: 'inline' } },
    ];
    const experiment = await write('CreateExperiment', '/admin/experiments', { body: { name: 'Presentation', paywallId: paywall.id, variants } });
    await write('UpdateExperiment', `/admin/experiments/${experiment.id}`, { method: 'PATCH', body: { name: 'Presentation test' } });
    expect((await decisions('/exp/a')).map((decision) => decision.experiment)).toEqual([undefined, undefined]);
    await write('StartExperiment', `/admin/experiments/${experiment.id}/start`);
    for (const decision of await decisions('/exp/a')) expect(decision.experiment?.experimentId).toBe(experiment.id);
    await write('StopExperiment', `/admin/experiments/${experiment.id}/stop`);
    expect((await decisions('/exp/a')).map((decision) => decision.experiment)).toEqual([undefined, undefined]);
    await write('DeleteExperiment', `/admin/experiments/${experiment.id}`, { method: 'DELETE', body: undefined });
  });

  it('the crawler policy', async () => {
    await write('CreatePaywall', '/admin/paywalls', { body: { name: 'Crawled', type: 'hard', match: { include: ['/crawl/**'] } } });
    const crawler = { client: { userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)', ip: '203.0.113.9' } };
    expect(await reason('/crawl/a', crawler)).toBe('blocked');
    await write('UpdateCrawlerPolicy', '/admin/crawler-policy', { method: 'PUT', body: { aiCrawlers: 'deny' } });
    expect(await reason('/crawl/a', crawler)).toBe('ai_crawler_denied');
    await write('UpdateCrawlerPolicy', '/admin/crawler-policy', { method: 'PUT', body: { aiCrawlers: 'allow' } });
    expect(await reason('/crawl/a', crawler)).toBe('ai_crawler_allowed');
  });

  it("products' entitlements and subscriptions (billing's writes)", async () => {
    const first = await write('CreatePaywall', '/admin/paywalls', { body: { name: 'First', type: 'hard', match: { include: ['/first/**'] } } });
    const second = await write('CreatePaywall', '/admin/paywalls', { body: { name: 'Second', type: 'hard', match: { include: ['/second/**'] } } });
    const product = await system.product({ name: 'First only', entitlements: [first.id] });
    const price = await system.price(product.id, { currency: 'EUR', unitAmount: 500, interval: 'month' });
    const reader: Reader = await system.reader();
    const asReader = { customerId: reader.id, userId: null };
    const { subscriptionId } = await system.grant(reader, price.id);
    expect([await reason('/first/a', asReader), await reason('/second/a', asReader)]).toEqual(['subscriber', 'blocked']);

    await write('billing UpdateProduct', `/admin/products/${product.id}`, { method: 'PATCH', body: { entitlements: [second.id] } });
    expect([await reason('/first/a', asReader), await reason('/second/a', asReader)]).toEqual(['blocked', 'subscriber']);

    await write('billing CancelSubscription', `/admin/subscriptions/${subscriptionId}/cancel`, { body: { atPeriodEnd: false } });
    expect(await reason('/second/a', asReader)).toBe('blocked');
  });

  /** Who decided each check so far, by reason: the gateway from its read models, or access (forwarded, with why). */
  async function decidedSoFar(): Promise<Map<string, number>> {
    const { values } = await edgeMetrics.checks.get();
    return new Map(values.map(({ labels, value }) => [`${labels.decided_by}:${labels.reason}`, value]));
  }

  interface Visitor {
    token?: string;
    userId?: string;
    userAgent?: string;
    country?: string;
  }

  /** A check through one gateway, with who decided it: `gateway:<reason>` or `access:<why it was forwarded>`. */
  async function checkThrough(gateway: string, path: string, visitor: Visitor = {}): Promise<{ result: AccessCheckResult; decided: string }> {
    const before = await decidedSoFar();
    const query = new URLSearchParams({ url: `${SITE}${path}`, ...(visitor.userId ? { userId: visitor.userId } : {}), ...(visitor.country ? { country: visitor.country } : {}) });
    const answer = await call<AccessCheckResult>(gateway, `/api/v1/access/check?${query}`, {
      key: system.publishableKey,
      token: visitor.token,
      headers: { 'User-Agent': visitor.userAgent ?? DESKTOP },
    });
    expect({ path, status: answer.status }).toEqual({ path, status: 200 });
    const grown = [...(await decidedSoFar())].filter(([label, count]) => count > (before.get(label) ?? 0)).map(([label]) => label);
    expect(grown).toHaveLength(1);
    return { result: answer.body, decided: grown[0] };
  }

  it('through two gateways: a paywall edit, a grant, a cancellation and a customer deletion made through one are seen by the very next check through the other, answered from its memory', async () => {
    const other = second.url;
    const paywall = await write('CreatePaywall', '/admin/paywalls', { body: { name: 'Edge', type: 'hard', match: { include: ['/edge/**'] } } });
    const product = await system.product({ name: 'Everything' });
    const price = await system.price(product.id, { currency: 'EUR', unitAmount: 900, interval: 'month' });
    const reader: Reader = await system.reader();
    const asReader = { token: reader.accessToken, userId: 'edge-visitor' };
    // The other gateway holds the rules and the reader's entitlements from here on.
    expect(await checkThrough(other, '/edge/a', asReader)).toMatchObject({ result: { reason: 'blocked' }, decided: 'gateway:blocked' });

    await write('UpdatePaywall', `/admin/paywalls/${paywall.id}`, { method: 'PATCH', body: { type: 'soft' } });
    expect(await checkThrough(other, '/edge/a', asReader)).toMatchObject({ result: { reason: 'soft' }, decided: 'gateway:soft' });
    await write('UpdatePaywall', `/admin/paywalls/${paywall.id}`, { method: 'PATCH', body: { type: 'hard', match: { include: ['/edge/**'], exclude: ['/edge/a'] } } });
    expect(await checkThrough(other, '/edge/a', asReader)).toMatchObject({ result: { reason: 'no_rule' }, decided: 'gateway:no_rule' });
    expect(await checkThrough(other, '/edge/b', asReader)).toMatchObject({ result: { reason: 'blocked' }, decided: 'gateway:blocked' });

    const { subscriptionId } = await system.grant(reader, price.id);
    expect(await checkThrough(other, '/edge/b', asReader)).toMatchObject({ result: { granted: true, reason: 'subscriber' }, decided: 'gateway:subscriber' });
    await write('billing CancelSubscription', `/admin/subscriptions/${subscriptionId}/cancel`, { body: { atPeriodEnd: false } });
    expect(await checkThrough(other, '/edge/b', asReader)).toMatchObject({ result: { granted: false, reason: 'blocked' }, decided: 'gateway:blocked' });

    await system.grant(reader, price.id);
    expect(await checkThrough(other, '/edge/b', asReader)).toMatchObject({ result: { reason: 'subscriber' } });
    expect((await system.admin(`/customers/${reader.id}`, { method: 'DELETE' })).status).toBe(204);
    const deleted = await call(other, `/api/v1/access/check?${new URLSearchParams({ url: `${SITE}/edge/b` })}`, { key: system.publishableKey, token: reader.accessToken });
    expect(deleted.status).toBe(401);
  });

  it("through a gateway's memory, a publication sees only its own rules, and another publication's URL is still refused by access", async () => {
    await write('CreatePaywall', '/admin/paywalls', { body: { name: 'Ours', type: 'hard', match: { include: ['/tenant/**'] } } });
    const other = await system.otherPublicationSession();
    const [domain] = (await system.admin('/admin/session', { session: other.session })).body.publication.domains;
    const keys = await system.admin('/admin/api-keys', { session: other.session, body: { name: 'other-site' } });
    expect(keys.status).toBe(201);
    const otherKey: string = keys.body.publishableKey;
    expect((await system.admin('/admin/paywalls', { session: other.session, body: { name: 'Theirs', type: 'soft', match: { include: ['/tenant/**'] } } })).status).toBe(201);
    const otherCheck = (url: string) => call<AccessCheckResult>(second.url, `/api/v1/access/check?${new URLSearchParams({ url })}`, { key: otherKey });

    for (let round = 0; round < 2; round++) {
      expect(await checkThrough(second.url, '/tenant/a')).toMatchObject({ result: { reason: 'blocked', paywallRule: { name: 'Ours' } }, decided: 'gateway:blocked' });
      expect((await otherCheck(`https://${domain}/tenant/a`)).body).toMatchObject({ reason: 'soft', paywallRule: { name: 'Theirs' } });
    }
    expect((await otherCheck(`${SITE}/tenant/a`)).body).toMatchObject({ status: 403, code: 'url_not_in_publication' });
  });

  it('through two gateways: each check answered at the gateway is the answer access gives; a meter, a pass, a visit count or a crawler to verify goes to access', async () => {
    await write('UpdateCrawlerPolicy', '/admin/crawler-policy', { method: 'PUT', body: { aiCrawlers: 'deny', searchEngines: 'grant' } });
    const made = async (name: string, type: string, config: object, include: string, extra: object = {}) =>
      write('CreatePaywall', '/admin/paywalls', { body: { name, type, config, match: { include: [include] }, ...extra } });
    const hard = await made('Hard', 'hard', {}, '/p/hard/**');
    await made('Registration', 'registration', {}, '/p/reg/**');
    await made('Metered', 'metered', { limit: 2, period: 'month' }, '/p/meter/**');
    await made('Newsletter', 'newsletter', {}, '/p/news/**');
    await made('Data', 'data', { fields: [{ name: 'email', label: 'Email', type: 'email', required: true }] }, '/p/data/**');
    const soft = await made('Soft', 'soft', {}, '/p/soft/**');
    const experiment = await write('CreateExperiment', '/admin/experiments', {
      body: { name: 'Soft copy', paywallId: soft.id, variants: [{ name: 'A', weight: 50 }, { name: 'B', weight: 50, overrides: { copy: { heading: 'B' } } }] },
    });
    await write('StartExperiment', `/admin/experiments/${experiment.id}/start`);
    const french = await write('CreateSegment', '/admin/segments', { body: { name: 'FR', match: 'all', conditions: [{ attribute: 'country', operator: 'eq', value: 'FR' }] } });
    await made('French', 'hard', {}, '/p/fr/**', { segmentId: french.id });
    const regulars = await write('CreateSegment', '/admin/segments', { body: { name: 'Regulars', match: 'all', conditions: [{ attribute: 'visit_count', operator: 'gt', value: 1000 }] } });
    await made('Regulars', 'hard', {}, '/p/vc/**', { segmentId: regulars.id });
    const everything = await system.price((await system.product({ name: 'All' })).id, { currency: 'EUR', unitAmount: 900, interval: 'month' });
    const hardOnly = await system.price((await system.product({ name: 'Hard only', entitlements: [hard.id] })).id, { currency: 'EUR', unitAmount: 500, interval: 'month' });
    const customer = await system.reader();
    const subscriber = await system.reader();
    await system.grant(subscriber, everything.id);
    const partial = await system.reader();
    await system.grant(partial, hardOnly.id);

    const readers: Array<Visitor & { customerId: string | null }> = [
      { customerId: null },
      { customerId: null, userId: 'edge-parity-visitor' },
      { customerId: customer.id, token: customer.accessToken },
      { customerId: subscriber.id, token: subscriber.accessToken, userId: 'edge-parity-subscriber' },
      { customerId: partial.id, token: partial.accessToken },
    ];
    const agents = [DESKTOP, 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'];
    const paths = ['/p/hard/x', '/p/reg/x', '/p/meter/x', '/p/news/x', '/p/data/x', '/p/soft/x', '/p/fr/x', '/p/vc/x', '/p/none'];
    const decided = new Set<string>();
    let n = 0;
    for (const reader of readers) {
      for (const userAgent of agents) {
        for (const path of paths) {
          const visitor = { ...reader, userAgent, country: path.startsWith('/p/fr/') ? 'FR' : undefined };
          const { result, decided: by } = await checkThrough(n++ % 2 === 0 ? system.url : second.url, path, visitor);
          decided.add(by);
          if (!by.startsWith('gateway:')) continue;
          // Access's own answer to the same check (a trial: counted in no stats).
          const [replica] = system.accessReplicas;
          const direct = await replica.app.get(AccessCheckHandler).check(
            request(path, { customerId: reader.customerId, userId: reader.userId ?? null, attributes: visitor.country ? { country: visitor.country } : {}, client: { userAgent, ip: '127.0.0.1' } }),
          );
          expect({ path, reader: reader.customerId ?? reader.userId ?? 'anonymous', userAgent, result }).toEqual({
            path,
            reader: reader.customerId ?? reader.userId ?? 'anonymous',
            userAgent,
            result: JSON.parse(JSON.stringify(direct)),
          });
        }
      }
    }
    expect([...decided].filter((by) => by.startsWith('access:')).sort()).toEqual(['access:crawler', 'access:meter', 'access:pass', 'access:visit_count']);
    expect([...decided].filter((by) => by.startsWith('gateway:')).sort()).toEqual(
      ['ai_crawler_denied', 'blocked', 'no_rule', 'registered', 'soft', 'subscriber'].map((reason) => `gateway:${reason}`),
    );
  });

  it('exercises every access write that can change a decision, and the write side imports nothing of the read side', () => {
    const writes = Object.keys(AccessRequests).filter((name) => /^(Create|Update|Delete|Start|Stop)/.test(name));
    // A segment is created and deleted only while no paywall uses it, so neither changes a decision.
    // Share links are read (and their opens spent) in the database at each check, and share settings
    // only shape the links made afterwards: no replica keeps either, so neither needs a notice.
    const changeNoDecision = ['DeleteSegment', 'CreateShareLink', 'UpdateShareSettings'];
    expect(writes.filter((name) => !exercised.has(name) && !changeNoDecision.includes(name))).toEqual([]);

    const lib = resolve(__dirname, '../../../libs/access/src/lib');
    for (const feature of ['paywalls', 'segments', 'experiments', 'crawlers']) {
      for (const file of readdirSync(join(lib, feature)).filter((name) => name.endsWith('.ts'))) {
        expect({ file, imports: /from '\.\.\/decisions\//.test(readFileSync(join(lib, feature, file), 'utf8')) }).toEqual({ file, imports: false });
      }
    }
  });
});
