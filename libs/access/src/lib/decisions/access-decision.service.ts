import { Injectable } from '@nestjs/common';
import type { AccessCheckRequest, AccessCheckResult, ExperimentAssignment, PaywallRule } from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import { MAX_MATCHED_PATH_LENGTH } from '../paywalls/path-glob';
import { CrawlerPolicyService } from '../crawlers/crawler-policy.service';
import { assignVariant } from '../experiments/variant-assignment';
import { MetersService } from '../meters/meters.service';
import { PassesService } from '../passes/passes.service';
import type { Reader } from '../readers/reader';
import { ReadersService } from '../readers/readers.service';
import { segmentMatches, usesAttribute, type VisitorFacts } from '../segments/segment-conditions';
import { parsePageUrl, requirePublicationHost, type PageAddress } from '../shared/page-url';
import { RollupsService } from '../stats/rollups.service';
import { SubscribersService } from '../subscribers/subscribers.service';
import { PaywallCatalog, type CandidatePaywall } from './paywall-catalog';

type Decision = Omit<AccessCheckResult, 'customerId'>;

/**
 * Decides whether a visitor may read a URL (spec 2.4, 4.2; decisions E1-E6, H4): the enabled
 * paywall of lowest priority whose globs cover the path and whose segment takes the visitor
 * applies, with the visitor's experiment variant; subscribers pass it, others as its type says.
 */
@Injectable()
export class AccessDecisionService {
  constructor(
    private readonly clock: Clock,
    private readonly catalog: PaywallCatalog,
    private readonly readers: ReadersService,
    private readonly subscribers: SubscribersService,
    private readonly meters: MetersService,
    private readonly passes: PassesService,
    private readonly rollups: RollupsService,
    private readonly crawlers: CrawlerPolicyService,
  ) {}

  async decide(request: AccessCheckRequest): Promise<AccessCheckResult> {
    const page = parsePageUrl(request.url, 'url');
    requirePublicationHost(page, request.domains);
    if (page.path.length > MAX_MATCHED_PATH_LENGTH) throw AppError.invalid('url', `must have a path of at most ${MAX_MATCHED_PATH_LENGTH} characters`);
    const now = this.clock.now();
    const reader = await this.readers.identify(request.publicationId, request.customerId, request.userId, now);
    this.readers.recordVisit(reader, now);
    const rules = await this.catalog.rulesOf(request.publicationId);
    const covering = rules.covering(page.matchPath);
    const facts = await this.factsOf(request, reader, page, covering);
    const paywall = covering.find((candidate) => !candidate.segment || segmentMatches(candidate.segment, facts));
    // The crawler policy applies only where a paywall does; its decisions are counted apart from readers'.
    const crawler = paywall ? await this.crawlers.decide(rules.crawlerPolicy, request.client) : null;
    let decision: Decision = { granted: true, reason: 'no_rule' };
    if (paywall) {
      decision = crawler
        ? { ...crawler, ...(crawler.granted ? {} : { paywallRule: paywall.rule }) }
        : await this.apply(paywall, reader, page, now, request.customerEmailVerified === true);
    }
    if (!request.trial) {
      this.rollups.count(request.publicationId, {
        at: now,
        paywallId: paywall?.rule.paywallId ?? null,
        experiment: decision.experiment ?? null,
        counter: crawler ? 'crawler_checks' : decision.granted ? 'checks_granted' : 'checks_denied',
      });
    }
    const { granted, reason, paywallRule, meter, experiment } = decision;
    return { granted, reason, paywallRule, customerId: request.customerId, meter, experiment };
  }

  private async apply(paywall: CandidatePaywall, reader: Reader, page: PageAddress, now: Date, emailVerified: boolean): Promise<Decision> {
    const { rule, experiment } = this.withVariant(paywall, reader);
    if (reader.customerId && (await this.subscribers.isSubscriberFor(reader.publicationId, reader.customerId, rule.paywallId))) {
      return { granted: true, reason: 'subscriber', experiment };
    }
    const blocked: Decision = { granted: false, reason: 'blocked', paywallRule: rule, experiment };
    switch (rule.type) {
      case 'soft':
        return { granted: true, reason: 'soft', paywallRule: rule, experiment };
      case 'hard':
        return blocked;
      case 'registration': {
        const verifiedEnough = emailVerified || !rule.config.requireVerifiedEmail;
        return reader.customerId && verifiedEnough ? { granted: true, reason: 'registered', experiment } : blocked;
      }
      case 'newsletter':
        return (await this.passes.hasPassed(reader, 'newsletter')) ? { granted: true, reason: 'newsletter_passed', experiment } : blocked;
      case 'data':
        return (await this.passes.hasPassed(reader, 'data', rule.config.fields.filter((field) => field.required).map((field) => field.name)))
          ? { granted: true, reason: 'data_passed', experiment }
          : blocked;
      case 'metered': {
        const { granted, meter } = await this.meters.consume(reader, rule.paywallId, page, rule.config, now);
        return granted ? { granted, reason: 'meter_allowance', meter, experiment } : { ...blocked, meter };
      }
    }
  }

  /** The visitor's variant of a running experiment; a visitor without identity sees the paywall as configured. */
  private withVariant(paywall: CandidatePaywall, reader: Reader): { rule: PaywallRule; experiment?: ExperimentAssignment } {
    // The site's visitor id first, so a reader keeps the variant across logging in on that device.
    const visitor = reader.visitorId ?? reader.customerId;
    const variant = paywall.experiment && visitor ? assignVariant(paywall.experiment.id, visitor, paywall.experiment.variants) : null;
    if (!paywall.experiment || !variant) return { rule: paywall.rule };
    return { rule: variant.rule, experiment: { experimentId: paywall.experiment.id, variantId: variant.id } };
  }

  /** Asks billing for the `subscriber` attribute, and counts visits, only when a segment in play looks at them. */
  private async factsOf(request: AccessCheckRequest, reader: Reader, page: PageAddress, covering: CandidatePaywall[]): Promise<VisitorFacts> {
    const asks = (attribute: 'subscriber' | 'visit_count') => covering.some((candidate) => candidate.segment && usesAttribute(candidate.segment, attribute));
    const asksSubscriber = asks('subscriber');
    const visits = asks('visit_count') ? await this.readers.visitsOf(reader) : undefined;
    const { attributes } = request;
    return {
      authenticated: reader.customerId !== null,
      subscriber: asksSubscriber && reader.customerId !== null && (await this.subscribers.isSubscriber(reader.publicationId, reader.customerId)),
      path: page.path,
      referrer: attributes.referrer,
      device: attributes.device,
      country: attributes.country,
      utm_source: attributes.utmSource,
      utm_medium: attributes.utmMedium,
      utm_campaign: attributes.utmCampaign,
      visit_count: visits,
    };
  }
}
