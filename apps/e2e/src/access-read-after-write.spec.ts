import { AccessCheckHandler } from '@gatehouse/access';
import { AccessRequests, type AccessCheckRequest, type AccessCheckResult } from '@gatehouse/contracts';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

  beforeAll(async () => {
    system = await WholeSystem.start({ accessReplicas: 2 });
  }, 180_000);
  afterAll(() => system?.close());

  const request = (path: string, extra: Partial<AccessCheckRequest>): AccessCheckRequest => ({
    publicationId: system.publicationId,
    domains: ['all.example'],
    url: `${SITE}${path}`,
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
    expect((await system.decision('/pw/b')).reason).toBe('no_rule');
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
    const product = await system.product('First only', [first.id]);
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

  it('exercises every access write that can change a decision, and the write side imports nothing of the read side', () => {
    const writes = Object.keys(AccessRequests).filter((name) => /^(Create|Update|Delete|Start|Stop)/.test(name));
    // A segment is created and deleted only while no paywall uses it, so neither changes a decision.
    const changeNoDecision = ['DeleteSegment'];
    expect(writes.filter((name) => !exercised.has(name) && !changeNoDecision.includes(name))).toEqual([]);

    const lib = resolve(__dirname, '../../../libs/access/src/lib');
    for (const feature of ['paywalls', 'segments', 'experiments', 'crawlers']) {
      for (const file of readdirSync(join(lib, feature)).filter((name) => name.endsWith('.ts'))) {
        expect({ file, imports: /from '\.\.\/decisions\//.test(readFileSync(join(lib, feature, file), 'utf8')) }).toEqual({ file, imports: false });
      }
    }
  });
});
