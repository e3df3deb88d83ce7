import type {
  AccessCheckRequest,
  AccessCheckResult,
  AccessReason,
  CheckCounter,
  CrawlerPolicy,
  CustomerEntitlement,
  ExperimentAssignment,
  MeterState,
  MeteredConfig,
  PaywallRule,
  SegmentCondition,
  VisitorAttributes,
} from '@gatehouse/contracts';
import { aiCrawlerOf, searchEngineOf, type SearchEngine } from './known-crawlers';
import type { PageAddress } from './page-url';
import type { CandidatePaywall, PublicationRules } from './publication-rules';
import { segmentMatches, usesAttribute, type VisitorFacts } from './segment-conditions';
import { withinTerm, type NetworkTable } from './organisation-networks';
import { isSubscriber, purchaseGrant, unlockingEntitlement, unlocksPaywall } from './subscription-rules';
import { assignVariant } from './variant-assignment';

/** One access check as the decision sees it: the page, who reads, and what they bring. */
export interface CheckFacts {
  page: PageAddress;
  /** The customer of a verified JWT. */
  customerId: string | null;
  /** The site's own visitor id (`userId`). */
  visitorId: string | null;
  /** The JWT's `email_verified` claim. */
  emailVerified: boolean;
  attributes: VisitorAttributes;
  client?: { userAgent: string | null; ip: string | null };
  /** A share link's token from the page URL. */
  shareToken?: string;
}

/** The check as the decision sees it, from the check's request and its page (read and vouched for by the caller). */
export function checkFactsOf(request: AccessCheckRequest, page: PageAddress): CheckFacts {
  return {
    page,
    customerId: request.customerId,
    visitorId: request.userId,
    emailVerified: request.customerEmailVerified === true,
    attributes: request.attributes,
    client: request.client,
    shareToken: request.shareToken,
  };
}

/**
 * The answer of a source its caller does not hold (the gateway holds no meters, passes, visit
 * counts, crawler checks or share links): the decision stops there and returns it. A value, not
 * an exception: a throw through the decision's awaits cost more than the rest of the decision.
 */
export class Unheld {
  constructor(readonly source: 'meter' | 'pass' | 'visit_count' | 'crawler' | 'share') {}
}

/**
 * What a decision may need beyond the rules and the check, each asked only when the decision
 * needs it. Access answers every one from its own data (`Missing` is never); the gateway answers
 * the entitlements and networks from its read models and the others with an `Unheld` (the check
 * then goes to access).
 */
export interface DecisionSources<Missing extends Unheld = never> {
  now: Date;
  pastDueGraceDays: number;
  /** The customer's subscriptions that are not cancelled and passes and single articles, with what each unlocks (billing's). */
  entitlements(customerId: string): Promise<readonly CustomerEntitlement[]>;
  /** The reader's visits so far, this check included; undefined without identity. */
  visits(): Promise<number | undefined | Missing>;
  /** Whether the address is the search engine's (reverse and forward DNS, else its published ranges). */
  crawlerVerified(engine: SearchEngine, ip: string): Promise<boolean | Missing>;
  /** Newsletter: any accepted subscription of the reader. Data: a submission that filled in every required field. */
  passed(kind: 'newsletter' | 'data', requiredFields: string[]): Promise<boolean | Missing>;
  /** Counts the page on the paywall's meter when new and allowed (a write, under the reader's lock). */
  consumeMeter(paywallId: string, config: MeteredConfig): Promise<{ granted: boolean; meter: MeterState } | Missing>;
  /** Opens the page with the share link of this token when it is the link's page and it has opens and time left (a write); null otherwise. */
  openSharedLink(token: string): Promise<{ firstName: string } | null | Missing>;
  /** The publication's organisations' IP ranges, compiled (`compileNetworks`). */
  networks(): Promise<NetworkTable>;
}

/** How an organisation let the reader in: a seat they hold, or a network the check came from. */
export type OrganisationGrantVia = 'seat' | 'network';

/** A check's answer before it goes on the wire: an organisation's grant also says which organisation and how (for its stats, never sent). */
export type Decision = Omit<AccessCheckResult, 'customerId' | 'organisation'> & {
  organisation?: { name: string; organisationId: string; via: OrganisationGrantVia };
};

export interface Outcome {
  decision: Decision;
  /** The paywall that applied, null when none covers the page for this visitor. */
  paywall: CandidatePaywall | null;
  /** What the check counts in the rollups. */
  counter: CheckCounter;
}

/**
 * Decides whether a visitor may read a page (spec 2.4, 4.2; decisions E3-E7, H4): the enabled
 * paywall of lowest priority whose globs cover the path and whose segment takes the visitor
 * applies, with the visitor's experiment variant; the crawler policy may decide for a crawler;
 * subscribers pass it, then holders of a pass or buyers of the page, others as its type says. The one decision of the product: access runs it
 * with its own sources, the gateway with what it holds in memory (docs/performance.md).
 */
export async function decideAccess<Missing extends Unheld = never>(
  rules: PublicationRules,
  check: CheckFacts,
  sources: DecisionSources<NoInfer<Missing>>,
): Promise<Outcome | Missing> {
  const covering = rules.covering(check.page.matchPath);
  const facts = lazyFacts({ customerId: check.customerId, path: check.page.path, attributes: check.attributes }, sources);
  let paywall: CandidatePaywall | null = null;
  for (const candidate of covering) {
    if (!candidate.segment) {
      paywall = candidate;
      break;
    }
    const visitor = await facts.about(candidate.segment);
    if (visitor instanceof Unheld) return visitor;
    if (segmentMatches(candidate.segment, visitor)) {
      paywall = candidate;
      break;
    }
  }
  if (!paywall) return { decision: { granted: true, reason: 'no_rule' }, paywall: null, counter: 'checks_granted' };
  // The crawler policy applies only where a paywall does; its decisions are counted apart from readers'.
  const crawler = await crawlerDecision(rules.crawlerPolicy, check.client, sources);
  if (crawler instanceof Unheld) return crawler;
  if (crawler) {
    return { decision: { ...crawler, ...(crawler.granted ? {} : { paywallRule: paywall.rule }) }, paywall, counter: 'crawler_checks' };
  }
  const decision = await apply(paywall, check, sources, facts);
  if (decision instanceof Unheld) return decision;
  return { decision, paywall, counter: decision.granted ? 'checks_granted' : 'checks_denied' };
}

/** The answer of a check, in the order of its fields on the wire. */
export function checkResultOf({ decision }: Outcome, customerId: string | null): AccessCheckResult {
  const { granted, reason, paywallRule, meter, experiment, sharedBy, organisation } = decision;
  return { granted, reason, paywallRule, customerId, meter, experiment, sharedBy, organisation: organisation && { name: organisation.name } };
}

async function apply<Missing extends Unheld>(paywall: CandidatePaywall, check: CheckFacts, sources: DecisionSources<Missing>, facts: LazyFacts<Missing>): Promise<Decision | Missing> {
  const { rule, experiment } = withVariant(paywall, check);
  if (check.customerId) {
    const entitlements = await facts.entitlements();
    const entitlement = unlockingEntitlement(entitlements, rule.paywallId, sources.now, sources.pastDueGraceDays);
    if (entitlement) {
      const seat = entitlement.organisation;
      return seat
        ? { granted: true, reason: 'organisation', organisation: { name: seat.name, organisationId: seat.organisationId, via: 'seat' }, experiment }
        : { granted: true, reason: 'subscriber', experiment };
    }
    const purchase = purchaseGrant(entitlements, rule.paywallId, check.page.key, sources.now);
    if (purchase) return { granted: true, reason: purchase, experiment };
  }
  // An organisation's network lets anyone in it read, signed in or not, within its term.
  const network = check.client?.ip ? (await sources.networks()).organisationAt(check.client.ip) : null;
  if (network && withinTerm(network, sources.now) && unlocksPaywall(network, rule.paywallId)) {
    return { granted: true, reason: 'organisation', organisation: { name: network.name, organisationId: network.organisationId, via: 'network' }, experiment };
  }
  const blocked: Decision = { granted: false, reason: 'blocked', paywallRule: rule, experiment };
  // A share link opens only what the wall would keep shut, so an open is spent only where it is needed.
  if (check.shareToken && rule.type !== 'soft') {
    const shared = await sources.openSharedLink(check.shareToken);
    if (shared instanceof Unheld) return shared;
    if (shared) return { granted: true, reason: 'shared_link', paywallRule: rule, sharedBy: shared, experiment };
  }
  switch (rule.type) {
    case 'soft':
      return { granted: true, reason: 'soft', paywallRule: rule, experiment };
    case 'hard':
      return blocked;
    case 'registration': {
      const verifiedEnough = check.emailVerified || !rule.config.requireVerifiedEmail;
      return check.customerId && verifiedEnough ? { granted: true, reason: 'registered', experiment } : blocked;
    }
    case 'newsletter': {
      const passed = await sources.passed('newsletter', []);
      if (passed instanceof Unheld) return passed;
      return passed ? { granted: true, reason: 'newsletter_passed', experiment } : blocked;
    }
    case 'data': {
      const passed = await sources.passed('data', rule.config.fields.filter((field) => field.required).map((field) => field.name));
      if (passed instanceof Unheld) return passed;
      return passed ? { granted: true, reason: 'data_passed', experiment } : blocked;
    }
    case 'metered': {
      const metered = await sources.consumeMeter(rule.paywallId, rule.config);
      if (metered instanceof Unheld) return metered;
      const { granted, meter } = metered;
      return granted ? { granted, reason: 'meter_allowance', meter, experiment } : { ...blocked, meter };
    }
  }
}

/** The visitor's variant of a running experiment; a visitor without identity sees the paywall as configured. */
function withVariant(paywall: CandidatePaywall, check: CheckFacts): { rule: PaywallRule; experiment?: ExperimentAssignment } {
  // The site's visitor id first, so a reader keeps the variant across logging in on that device.
  const visitor = check.visitorId ?? check.customerId;
  const variant = paywall.experiment && visitor ? assignVariant(paywall.experiment.id, visitor, paywall.experiment.variants) : null;
  if (!paywall.experiment || !variant) return { rule: paywall.rule };
  return { rule: variant.rule, experiment: { experimentId: paywall.experiment.id, variantId: variant.id } };
}

type CrawlerReason = Extract<AccessReason, 'search_crawler_granted' | 'search_crawler_denied' | 'ai_crawler_allowed' | 'ai_crawler_denied'>;

/**
 * What the crawler policy decides for a request to a page a paywall covers; null: decide as for
 * any visitor. AI crawlers by User-Agent; search engines by User-Agent and a verified address (a
 * spoofed User-Agent from any other address is an ordinary visitor).
 */
async function crawlerDecision<Missing extends Unheld>(
  policy: CrawlerPolicy,
  client: CheckFacts['client'],
  sources: DecisionSources<Missing>,
): Promise<{ granted: boolean; reason: CrawlerReason } | null | Missing> {
  const userAgent = client?.userAgent ?? '';
  if (!userAgent) return null;
  if (aiCrawlerOf(userAgent)) {
    const rule = policy.aiCrawlers;
    return rule === 'meter' ? null : { granted: rule === 'allow', reason: rule === 'allow' ? 'ai_crawler_allowed' : 'ai_crawler_denied' };
  }
  const engine = searchEngineOf(userAgent);
  if (!engine || !client?.ip) return null;
  const rule = policy.searchEngines;
  if (rule === 'meter') return null;
  const verified = await sources.crawlerVerified(engine, client.ip);
  if (verified instanceof Unheld) return verified;
  if (!verified) return null;
  return { granted: rule === 'grant', reason: rule === 'grant' ? 'search_crawler_granted' : 'search_crawler_denied' };
}

/** What a segment may look at of a reader beyond what is stored of them: who they are, the page's path, the request's attributes. */
export interface SegmentCheck {
  customerId: string | null;
  /** The page's path; undefined when no page is known. */
  path: string | undefined;
  attributes: VisitorAttributes;
}

/**
 * Whether the reader is in the segment, on the facts an access check would see (the same facts
 * `decideAccess` takes a paywall's segment by): an offer limited to a segment asks this.
 */
export async function readerInSegment(
  segment: { match: 'all' | 'any'; conditions: readonly SegmentCondition[] },
  check: SegmentCheck,
  sources: Pick<DecisionSources, 'now' | 'pastDueGraceDays' | 'entitlements' | 'visits'>,
): Promise<boolean> {
  return segmentMatches(segment, await lazyFacts(check, sources).about(segment));
}

interface LazyFacts<Missing extends Unheld> {
  /** The visitor's segment attributes, asking billing and the visit count only when this segment looks at them. */
  about(segment: { conditions: readonly SegmentCondition[] }): Promise<VisitorFacts | Missing>;
  entitlements(): Promise<readonly CustomerEntitlement[]>;
}

function lazyFacts<Missing extends Unheld>(
  check: SegmentCheck,
  sources: Pick<DecisionSources<Missing>, 'now' | 'pastDueGraceDays' | 'entitlements' | 'visits'>,
): LazyFacts<Missing> {
  let entitlements: Promise<readonly CustomerEntitlement[]> | undefined;
  let visits: Promise<number | undefined | Missing> | undefined;
  const { attributes } = check;
  const base: VisitorFacts = {
    authenticated: check.customerId !== null,
    subscriber: false,
    path: check.path,
    referrer: attributes.referrer,
    device: attributes.device,
    country: attributes.country,
    utm_source: attributes.utmSource,
    utm_medium: attributes.utmMedium,
    utm_campaign: attributes.utmCampaign,
    visit_count: undefined,
  };
  const facts: LazyFacts<Missing> = {
    entitlements: () => (entitlements ??= check.customerId ? sources.entitlements(check.customerId) : Promise.resolve([])),
    async about(segment) {
      const subscriber = usesAttribute(segment, 'subscriber') && check.customerId !== null && isSubscriber(await facts.entitlements(), sources.now, sources.pastDueGraceDays);
      const visitCount = usesAttribute(segment, 'visit_count') ? await (visits ??= sources.visits()) : undefined;
      if (visitCount instanceof Unheld) return visitCount;
      return { ...base, subscriber, visit_count: visitCount };
    },
  };
  return facts;
}
