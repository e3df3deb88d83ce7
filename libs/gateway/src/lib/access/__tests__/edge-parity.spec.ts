import { checkedPageOf, checkResultOf, compileNetworks, compileRules, decideAccess, pageAddressOf, type DecisionSources, type Outcome, type PublicationRules } from '@gatehouse/access-decisions';
import type {
  AccessCheckRequest,
  CrawlerPolicy,
  CustomerEntitlement,
  SubscriptionEntitlement,
  DecisionPaywall,
  DecisionRules,
  PaywallRule,
  PaywallSettings,
  SegmentCondition,
  SubscriptionStatus,
} from '@gatehouse/contracts';
import { decideAtEdge, Forward, forwardAtOnce, organisationGrantOf, type ForwardReason } from '../edge-decisions.service';

/**
 * Issue 29: the gateway's answer to an access check equals access's for every check it answers,
 * and it sends the check to access whenever the decision needs what only access has. Hundreds of
 * generated publications' rules × readers × pages, decided both ways: access's way with every
 * source answered (meters, passes, visits, verified crawlers, billing's entitlements at access's
 * time and grace), the gateway's way with only the rules and the entitlements.
 */

const NOW = new Date('2031-03-14T10:30:00.000Z');
const GRACE_DAYS = 3;
const DAY_MS = 86_400_000;
const DOMAINS = ['news.example.com'];
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** A small deterministic generator, so a failure names a case that comes back. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)];

const SETTINGS: PaywallSettings[] = [
  { type: 'hard', config: {} },
  { type: 'soft', config: {} },
  { type: 'newsletter', config: {} },
  { type: 'registration', config: {} },
  { type: 'registration', config: { requireVerifiedEmail: true } },
  { type: 'metered', config: { limit: 3, period: 'month' } },
  { type: 'data', config: { fields: [{ name: 'email', label: 'Email', type: 'email', required: true }, { name: 'role', label: 'Role', type: 'text', required: false }] } },
];
const INCLUDES = [['/premium/**'], ['/news/*'], ['/**'], ['/a/?/b'], ['/premium/**', '/news/*/deep'], ['/sport/**'], ['/']];
const EXCLUDES = [[], [], ['/premium/free/**'], ['/news/free-*'], ['/**/open']];
const SEGMENTS: Array<{ match: 'all' | 'any'; conditions: SegmentCondition[] } | null> = [
  null,
  null,
  { match: 'all', conditions: [{ attribute: 'country', operator: 'eq', value: 'FR' }] },
  { match: 'any', conditions: [{ attribute: 'device', operator: 'in', value: ['mobile', 'tablet'] }, { attribute: 'path', operator: 'contains', value: 'story' }] },
  { match: 'all', conditions: [{ attribute: 'authenticated', operator: 'eq', value: true }] },
  { match: 'all', conditions: [{ attribute: 'subscriber', operator: 'neq', value: true }] },
  { match: 'all', conditions: [{ attribute: 'visit_count', operator: 'gt', value: 2 }] },
  { match: 'any', conditions: [{ attribute: 'utm_source', operator: 'eq', value: 'newsletter' }, { attribute: 'referrer', operator: 'contains', value: 'google' }] },
];
const POLICIES: CrawlerPolicy[] = [
  { searchEngines: 'meter', aiCrawlers: 'meter', updatedAt: null },
  { searchEngines: 'grant', aiCrawlers: 'deny', updatedAt: null },
  { searchEngines: 'deny', aiCrawlers: 'allow', updatedAt: null },
];
const PATHS = ['/premium/story', '/premium/free/x', '/news/today', '/news/free-lunch', '/a/1/b', '/sport/live/open', '/', '/about', '/NEWS/Today/', '/news/x/deep'];

function rulesOf(next: () => number, n: number): DecisionRules {
  const paywalls = Array.from({ length: 1 + Math.floor(next() * 4) }, (_, i): DecisionPaywall => {
    const settings = pick(next, SETTINGS);
    const rule = { paywallId: `pw-${n}-${i}`, name: `Paywall ${i}`, ...settings, presentation: 'modal', copy: null, oneTimePriceIds: [] } as PaywallRule;
    const experimented = next() < 0.25;
    return {
      rule,
      includeGlobs: pick(next, INCLUDES).map((glob) => glob.toLowerCase()),
      excludeGlobs: pick(next, EXCLUDES),
      segment: pick(next, SEGMENTS),
      experiment: experimented
        ? {
            id: `exp-${n}-${i}`,
            variants: [
              { id: 'control', name: 'Control', weight: 50, overrides: {} },
              {
                id: 'b',
                name: 'B',
                weight: 50,
                overrides: settings.type === 'metered' ? { config: { limit: 5 }, presentation: 'inline' } : { presentation: 'sticky_bar', copy: { heading: 'Read on' } },
              },
            ],
          }
        : null,
    };
  });
  return { paywalls, crawlerPolicy: pick(next, POLICIES) };
}

interface Reader {
  name: string;
  customerId: string | null;
  userId: string | null;
  emailVerified?: boolean;
  entitlements: (paywallIds: string[]) => CustomerEntitlement[];
  userAgent: string;
  ip: string;
  /** What only access knows of the reader. */
  visits: number;
  newsletter: boolean;
  data: boolean;
  crawlerVerified: boolean;
  attributes: AccessCheckRequest['attributes'];
}

const entitlement = (status: SubscriptionStatus, paywallIds: string[], pastDueDays?: number): SubscriptionEntitlement => ({
  kind: 'subscription',
  subscriptionId: `sub-${status}`,
  status,
  pastDueSince: pastDueDays === undefined ? null : new Date(NOW.getTime() - pastDueDays * DAY_MS).toISOString(),
  currentPeriodEnd: '2031-04-14T00:00:00.000Z',
  paywallIds,
});

const pass = (hoursLeft: number, paywallIds: string[]): CustomerEntitlement => ({
  kind: 'pass',
  purchaseId: `pass-${hoursLeft}`,
  endsAt: new Date(NOW.getTime() + hoursLeft * 3_600_000).toISOString(),
  pageKey: null,
  paywallIds,
});
const article = (path: string): CustomerEntitlement => ({ kind: 'single_article', purchaseId: `article-${path}`, endsAt: null, pageKey: `news.example.com${path.toLowerCase()}`, paywallIds: [] });

const none = () => [];
const ALWAYS = { startsAt: '2020-01-01T00:00:00.000Z', endsAt: null };
/** Terms that ended or start a millisecond either side of the checks' time. */
const ENDED = { startsAt: '2020-01-01T00:00:00.000Z', endsAt: NOW.toISOString() };
const STARTING = { startsAt: new Date(NOW.getTime() + 1).toISOString(), endsAt: null };
/**
 * A campus whose network unlocks every paywall, a library whose network unlocks the first paywall
 * of three rule sets, a school whose term ended at the checks' time and an institute whose term
 * starts just after it (the decision compares a term with the check's time, at the gateway too).
 */
const NETWORKS = compileNetworks([
  { organisationId: 'o-1', name: 'Campus', paywallIds: [], ranges: ['81.2.69.0/24', '2a02:1234::/32'], ...ALWAYS },
  { organisationId: 'o-2', name: 'Library', paywallIds: ['pw-0-0', 'pw-1-0', 'pw-2-0'], ranges: ['81.2.70.0/24'], ...ALWAYS },
  { organisationId: 'o-4', name: 'School', paywallIds: [], ranges: ['81.2.71.0/24'], ...ENDED },
  { organisationId: 'o-5', name: 'Institute', paywallIds: [], ranges: ['2a02:1236::/32'], ...STARTING },
]);
const seat = (status: SubscriptionStatus, term: { startsAt: string; endsAt: string | null } = ALWAYS): CustomerEntitlement => ({
  ...entitlement(status, []),
  subscriptionId: null,
  organisation: { organisationId: 'o-3', name: 'Acme', ...term },
});
const READERS: Reader[] = [
  { name: 'anonymous', customerId: null, userId: null, entitlements: none, userAgent: BROWSER, ip: '203.0.113.9', visits: 0, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'known visitor', customerId: null, userId: 'v-1', entitlements: none, userAgent: BROWSER, ip: '203.0.113.9', visits: 5, newsletter: true, data: false, crawlerVerified: false, attributes: { device: 'mobile', country: 'FR' } },
  { name: 'visitor from a campaign', customerId: null, userId: 'v-2', entitlements: none, userAgent: BROWSER, ip: '203.0.113.9', visits: 1, newsletter: false, data: true, crawlerVerified: false, attributes: { utmSource: 'newsletter', device: 'desktop', country: 'DE' } },
  { name: 'customer, no subscription', customerId: 'c-1', userId: 'v-3', entitlements: none, userAgent: BROWSER, ip: '203.0.113.9', visits: 9, newsletter: false, data: false, crawlerVerified: false, attributes: { country: 'FR' } },
  { name: 'customer, verified email', customerId: 'c-2', userId: null, emailVerified: true, entitlements: none, userAgent: BROWSER, ip: '203.0.113.9', visits: 0, newsletter: true, data: true, crawlerVerified: false, attributes: { referrer: 'https://www.google.com/' } },
  { name: 'subscriber to everything', customerId: 'c-3', userId: 'v-4', entitlements: () => [entitlement('active', [])], userAgent: BROWSER, ip: '203.0.113.9', visits: 3, newsletter: false, data: false, crawlerVerified: false, attributes: { device: 'tablet' } },
  { name: 'subscriber to one paywall in two', customerId: 'c-4', userId: null, entitlements: (ids) => [entitlement('active', ids.filter((_, i) => i % 2 === 0))], userAgent: BROWSER, ip: '203.0.113.9', visits: 1, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'trialing', customerId: 'c-5', userId: 'v-5', entitlements: () => [entitlement('trialing', [])], userAgent: BROWSER, ip: '203.0.113.9', visits: 4, newsletter: false, data: false, crawlerVerified: false, attributes: { country: 'FR' } },
  { name: 'cancelled', customerId: 'c-6', userId: null, entitlements: () => [entitlement('cancelled', [])], userAgent: BROWSER, ip: '203.0.113.9', visits: 2, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'past_due within grace', customerId: 'c-7', userId: null, entitlements: () => [entitlement('past_due', [], 1)], userAgent: BROWSER, ip: '203.0.113.9', visits: 1, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'past_due past grace', customerId: 'c-8', userId: 'v-8', entitlements: () => [entitlement('past_due', [], 10)], userAgent: BROWSER, ip: '203.0.113.9', visits: 1, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'pass holder', customerId: 'c-9', userId: null, entitlements: () => [pass(2, [])], userAgent: BROWSER, ip: '203.0.113.9', visits: 1, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'pass ended', customerId: 'c-10', userId: null, entitlements: () => [pass(-1, [])], userAgent: BROWSER, ip: '203.0.113.9', visits: 1, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'buyer of one article', customerId: 'c-11', userId: 'v-11', entitlements: () => [article('/premium/story'), article('/news/today')], userAgent: BROWSER, ip: '203.0.113.9', visits: 2, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'AI crawler', customerId: null, userId: null, entitlements: none, userAgent: GPTBOT, ip: '198.51.100.7', visits: 0, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'verified search engine', customerId: null, userId: null, entitlements: none, userAgent: GOOGLEBOT, ip: '66.249.66.1', visits: 0, newsletter: false, data: false, crawlerVerified: true, attributes: {} },
  { name: 'anonymous on a campus network', customerId: null, userId: null, entitlements: none, userAgent: BROWSER, ip: '81.2.69.40', visits: 0, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'visitor on a campus network over IPv6', customerId: null, userId: 'v-10', entitlements: none, userAgent: BROWSER, ip: '2a02:1234::7', visits: 3, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'customer in a library', customerId: 'c-9', userId: null, entitlements: none, userAgent: BROWSER, ip: '81.2.70.9', visits: 1, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'member of an organisation', customerId: 'c-10', userId: null, entitlements: () => [seat('active')], userAgent: BROWSER, ip: '203.0.113.9', visits: 1, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'member of an organisation whose term ended', customerId: 'c-12', userId: null, entitlements: () => [seat('active', ENDED)], userAgent: BROWSER, ip: '203.0.113.9', visits: 1, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'member of an organisation yet to start', customerId: 'c-13', userId: 'v-13', entitlements: () => [seat('active', STARTING)], userAgent: BROWSER, ip: '203.0.113.9', visits: 1, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'visitor on a school network whose term ended', customerId: null, userId: 'v-14', entitlements: none, userAgent: BROWSER, ip: '81.2.71.9', visits: 2, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'anonymous on an institute network yet to start', customerId: null, userId: null, entitlements: none, userAgent: BROWSER, ip: '2a02:1236::9', visits: 0, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
  { name: 'search engine spoofed', customerId: null, userId: 'v-9', entitlements: none, userAgent: GOOGLEBOT, ip: '203.0.113.50', visits: 0, newsletter: false, data: false, crawlerVerified: false, attributes: {} },
];

/** What access uses to decide, beyond the rules and the entitlements: consulting one is a reason to forward. */
type AccessOnly = Exclude<ForwardReason, 'rules' | 'entitlements' | 'invalid' | 'error' | 'share'>;

/** Access's sources: every question answered, and a note of which of them only access could answer. */
function accessSources(reader: Reader, entitlements: CustomerEntitlement[], consulted: Set<AccessOnly>): DecisionSources {
  return {
    now: NOW,
    pastDueGraceDays: GRACE_DAYS,
    entitlements: async () => {
      if (entitlements.some((e) => e.kind === 'subscription' && e.status === 'past_due')) consulted.add('past_due');
      if (entitlements.some((e) => e.kind === 'pass')) consulted.add('time_pass');
      return entitlements;
    },
    visits: async () => (consulted.add('visit_count'), reader.customerId || reader.userId ? reader.visits : undefined),
    crawlerVerified: async () => (consulted.add('crawler'), reader.crawlerVerified),
    passed: async (kind) => (consulted.add('pass'), kind === 'newsletter' ? reader.newsletter : reader.data),
    // No check of this table carries a share token (a check with one never stays at the gateway).
    openSharedLink: async () => null,
    networks: async () => NETWORKS,
    consumeMeter: async (_paywallId, config) => {
      consulted.add('meter');
      const identified = reader.customerId !== null || reader.userId !== null;
      const used = identified ? Math.min(reader.visits, config.limit) : config.limit;
      return { granted: identified && reader.visits < config.limit, meter: { limit: config.limit, used, remaining: config.limit - used, period: config.period, resetsAt: '2031-04-01T00:00:00.000Z' } };
    },
  };
}

function requestOf(publicationId: string, reader: Reader, path: string): AccessCheckRequest {
  return {
    publicationId,
    domains: DOMAINS,
    page: checkedPageOf(`https://news.example.com${path}?utm_medium=x`, DOMAINS),
    customerId: reader.customerId,
    customerEmailVerified: reader.emailVerified,
    userId: reader.userId,
    attributes: reader.attributes,
    client: { userAgent: reader.userAgent, ip: reader.ip },
  };
}

function edgeOutcome(rules: PublicationRules, request: AccessCheckRequest, entitlements: CustomerEntitlement[]): Promise<Outcome | Forward> {
  return decideAtEdge(rules, request, pageAddressOf(request.page), { now: NOW, entitlementsOf: async () => entitlements, networks: async () => NETWORKS });
}

describe('the gateway decides as access does (issue 29)', () => {
  it('answers hundreds of generated checks exactly as access, and forwards each one that needs a meter, a pass, a visit count, a crawler check, a past_due grace or a time pass', async () => {
    const next = random(29);
    const answered = new Map<string, number>();
    const forwarded = new Map<string, number>();
    /** Checks told to go to access before any decision, by reason. */
    const atOnce = new Map<string, number>();
    /** Readers an organisation let in, by name. */
    const organisationGranted = new Set<string>();
    let cases = 0;
    for (let n = 0; n < 60; n++) {
      const source = rulesOf(next, n);
      const rules = compileRules(source);
      const paywallIds = source.paywalls.map((paywall) => paywall.rule.paywallId);
      for (const reader of READERS) {
        for (const path of PATHS.filter(() => next() < 0.5)) {
          cases++;
          const request = requestOf(`pub-${n}`, reader, path);
          const entitlements = reader.entitlements(paywallIds);
          const consulted = new Set<AccessOnly>();
          const page = pageAddressOf(request.page);
          const check = { page, customerId: reader.customerId, visitorId: reader.userId, emailVerified: reader.emailVerified === true, attributes: reader.attributes, client: request.client };
          const access = await decideAccess(rules, check, accessSources(reader, entitlements, consulted));
          const edge = await edgeOutcome(rules, request, entitlements);
          const label = `${reader.name} on ${path} (rules ${n}: ${JSON.stringify(source)})`;
          // Sent on before the decision only where the decision would send it, for the same reason.
          const early = forwardAtOnce(request, page, rules, () => NETWORKS);
          if (early) {
            atOnce.set(early.reason, (atOnce.get(early.reason) ?? 0) + 1);
            expect({ label, early: early.reason }).toEqual({ label, early: edge instanceof Forward ? edge.reason : 'answered at the gateway' });
          }
          if (access.decision.reason === 'organisation') organisationGranted.add(reader.name);
          if (edge instanceof Forward) {
            forwarded.set(edge.reason, (forwarded.get(edge.reason) ?? 0) + 1);
            // Forwarded only for what access alone could answer, and access did need it.
            expect({ label, reason: edge.reason, needed: consulted.has(edge.reason as AccessOnly) }).toEqual({ label, reason: edge.reason, needed: true });
          } else {
            answered.set(access.decision.reason, (answered.get(access.decision.reason) ?? 0) + 1);
            expect({ label, answer: checkResultOf(edge, reader.customerId), counter: edge.counter, paywall: edge.paywall?.rule.paywallId ?? null, organisation: organisationGrantOf(edge) }).toEqual({
              label,
              answer: checkResultOf(access, reader.customerId),
              counter: access.counter,
              paywall: access.paywall?.rule.paywallId ?? null,
              organisation: organisationGrantOf(access),
            });
            expect({ label, consulted: [...consulted] }).toEqual({ label, consulted: [] });
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(2_000);
    // The generator reaches every kind of answer and every reason to forward.
    expect([...answered.keys()].sort()).toEqual(
      expect.arrayContaining(['ai_crawler_allowed', 'ai_crawler_denied', 'blocked', 'no_rule', 'organisation', 'registered', 'single_article', 'soft', 'subscriber']),
    );
    expect([...forwarded.keys()].sort()).toEqual(['crawler', 'meter', 'pass', 'past_due', 'time_pass', 'visit_count']);
    // The early forwards are a good part of the meters and visit counts, not all: the rest needs the decision.
    expect([...atOnce.keys()].sort()).toEqual(['meter', 'visit_count']);
    for (const reason of ['meter', 'visit_count']) expect(atOnce.get(reason)).toBeLessThan(forwarded.get(reason) ?? 0);
    // Organisations let their members and networks in within their terms only.
    expect([...organisationGranted].sort()).toEqual(['anonymous on a campus network', 'customer in a library', 'member of an organisation', 'visitor on a campus network over IPv6']);
    // Most checks need nothing but the rules and the entitlements.
    const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, count) => sum + count, 0);
    expect(total(answered)).toBeGreaterThan(total(forwarded));
  });
});
