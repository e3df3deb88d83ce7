import { Injectable } from '@nestjs/common';
import { checkFactsOf, checkResultOf, decideAccess, pageAddressOf, parsePageUrl, readerInSegment, requirePublicationHost } from '@gatehouse/access-decisions';
import type { AccessCheckRequest, AccessCheckResult, EdgeCheckRecord, SegmentReader } from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import { AccessConfig } from '../access.config';
import { CrawlerVerification } from '../crawlers/crawler-verification.service';
import { MetersService } from '../meters/meters.service';
import { PassesService } from '../passes/passes.service';
import { readerOf } from '../readers/reader';
import { ReadersService } from '../readers/readers.service';
import { ShareLinksService } from '../sharing/share-links.service';
import { SegmentsService } from '../segments/segments.service';
import { OrganisationReadsService } from '../stats/organisation-reads.service';
import { RollupsService } from '../stats/rollups.service';
import { SubscribersService } from '../subscribers/subscribers.service';
import { PaywallCatalog } from './paywall-catalog.service';

/**
 * Decides whether a visitor may read a URL (spec 2.4, 4.2; decisions E1-E6, H4) by the one access
 * decision (`decideAccess` of `@gatehouse/access-decisions`, which the gateway runs too), with
 * access's own sources: the reader's links and visits, billing's entitlements, the passes, the
 * meters, the share links and the crawlers' verified addresses. Every check counts as the reader's visit and in the
 * rollups, and an organisation's grant in its reads, whether decided here or at the gateway (`recordEdgeChecks`).
 */
@Injectable()
export class AccessDecisionService {
  constructor(
    private readonly clock: Clock,
    private readonly config: AccessConfig,
    private readonly catalog: PaywallCatalog,
    private readonly readers: ReadersService,
    private readonly subscribers: SubscribersService,
    private readonly meters: MetersService,
    private readonly passes: PassesService,
    private readonly rollups: RollupsService,
    private readonly organisationReads: OrganisationReadsService,
    private readonly verification: CrawlerVerification,
    private readonly shareLinks: ShareLinksService,
    private readonly segments: SegmentsService,
  ) {}

  async decide(request: AccessCheckRequest): Promise<AccessCheckResult> {
    const page = pageAddressOf(request.page);
    // The gateway refused a page of another publication; so does this service, whoever asks.
    requirePublicationHost(page, request.domains);
    const now = this.clock.now();
    const reader = await this.readers.identify(request.publicationId, request.customerId, request.userId, now);
    this.readers.recordVisit(reader, now);
    const rules = await this.catalog.rulesOf(request.publicationId);
    const outcome = await decideAccess(
      rules,
      checkFactsOf(request, page),
      {
        now,
        pastDueGraceDays: this.config.PAST_DUE_GRACE_DAYS,
        entitlements: (customerId) => this.subscribers.entitlementsOf(request.publicationId, customerId),
        networks: () => this.subscribers.networksOf(request.publicationId),
        visits: () => this.readers.visitsOf(reader),
        crawlerVerified: (engine, ip) => this.verification.verify(engine, ip),
        passed: (kind, requiredFields) => this.passes.hasPassed(reader, kind, requiredFields),
        consumeMeter: (paywallId, config) => this.meters.consume(reader, paywallId, page, config, now),
        // A staff member's trial spends no open.
        openSharedLink: async (token) =>
          request.trial ? null : this.shareLinks.open(request.publicationId, token, page, { visitorId: request.userId, customerId: request.customerId }, now),
      },
    );
    if (!request.trial) {
      this.rollups.count(request.publicationId, {
        at: now,
        paywallId: outcome.paywall?.rule.paywallId ?? null,
        experiment: outcome.decision.experiment ?? null,
        counter: outcome.counter,
      });
      const organisation = outcome.decision.organisation;
      if (organisation) this.organisationReads.count(request.publicationId, organisation, reader.key, now);
    }
    return checkResultOf(outcome, request.customerId);
  }

  /**
   * Whether a reader away from a check (an offer's, docs/billing.md) is in the segment: the facts a
   * check of `reader.url` would see (linking a visitor id to the customer as a check does), without
   * counting a visit. Without identity nothing stored is known of the reader.
   */
  async inSegment(publicationId: string, segmentId: string, reader: SegmentReader): Promise<boolean> {
    const segment = await this.segments.require(publicationId, segmentId);
    const path = reader.url === null ? undefined : parsePageUrl(reader.url, 'reader.url').path;
    const now = this.clock.now();
    const identified = await this.readers.identify(publicationId, reader.customerId, reader.visitorId, now);
    return readerInSegment(
      segment,
      { customerId: reader.customerId, path, attributes: reader.attributes },
      {
        now,
        pastDueGraceDays: this.config.PAST_DUE_GRACE_DAYS,
        entitlements: (customerId) => this.subscribers.entitlementsOf(publicationId, customerId),
        visits: () => this.readers.visitsOf(identified),
      },
    );
  }

  /**
   * Checks a gateway answered from its own memory: each is the reader's visit (linking its visitor
   * id to its customer, as a check here would) and counts in the rollups, at this replica's time.
   */
  async recordEdgeChecks(checks: readonly EdgeCheckRecord[]): Promise<number> {
    const now = this.clock.now();
    for (const check of checks) {
      // A link not written now (the database away) is written by the reader's next check with both ids.
      const reader = await this.readers
        .identify(check.publicationId, check.customerId, check.userId, now)
        .catch(() => readerOf(check.publicationId, check.customerId, check.userId));
      this.readers.recordVisit(reader, now);
      this.rollups.count(check.publicationId, { at: now, paywallId: check.paywallId, experiment: check.experiment, counter: check.counter });
      if (check.organisation) this.organisationReads.count(check.publicationId, check.organisation, reader.key, now);
    }
    return checks.length;
  }
}
