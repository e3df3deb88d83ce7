import type { Page, PageRequest } from './pagination';
import { requestPattern } from './patterns';
import type { CheckedPage } from './page-paths';

/*
 * Access: paywalls, segments, experiments, access decisions, track-event intake and its rollups
 * (spec 2.4, 4.2, 6.2; decisions E1-E8, H2, H4). docs/access.md describes the behaviour.
 */

// Paywalls (decisions E4, E5)

export const PAYWALL_TYPES = ['hard', 'soft', 'metered', 'registration', 'newsletter', 'data'] as const;
export type PaywallType = (typeof PAYWALL_TYPES)[number];

export const PAYWALL_PRESENTATIONS = ['modal', 'inline', 'sticky_bar', 'content_lock'] as const;
export type PaywallPresentation = (typeof PAYWALL_PRESENTATIONS)[number];

export const METER_PERIODS = ['day', 'week', 'month'] as const;
export type MeterPeriod = (typeof METER_PERIODS)[number];

export const DATA_FIELD_TYPES = ['text', 'email', 'tel', 'number', 'checkbox'] as const;
export type DataFieldType = (typeof DATA_FIELD_TYPES)[number];

export interface MeteredConfig {
  limit: number;
  period: MeterPeriod;
}

export interface DataWallField {
  name: string;
  label: string;
  type: DataFieldType;
  required: boolean;
}

export interface DataWallConfig {
  fields: DataWallField[];
}

/** A registration wall that lets only readers with a verified email through (docs/email.md). */
export interface RegistrationWallConfig {
  requireVerifiedEmail?: boolean;
}

/** Hard, soft and newsletter paywalls take no settings: `{}`. */
export type NoSettings = Record<string, never>;

/**
 * The settings each paywall type takes (decisions E5). A new type is one more entry here (and in
 * PAYWALL_TYPES, and its schema in `@gatehouse/contracts/paywall-config`): the compiler then
 * points at every switch over paywall types that must learn it.
 */
export interface PaywallConfigs {
  hard: NoSettings;
  soft: NoSettings;
  newsletter: NoSettings;
  metered: MeteredConfig;
  registration: RegistrationWallConfig;
  data: DataWallConfig;
}

/** A paywall's type with the settings of that type: narrowing on `type` narrows `config`. */
export type PaywallSettings = { [T in PaywallType]: { type: T; config: PaywallConfigs[T] } }[PaywallType];
export type PaywallConfig = PaywallConfigs[PaywallType];
/** Settings as a client sends them, before the paywall's type checked them. */
export type PaywallConfigInput = Record<string, unknown>;

/** Text shown by the paywall's UI component; null or absent fields fall back to the branding copy. */
export interface PaywallCopy {
  heading?: string | null;
  description?: string | null;
  ctaText?: string | null;
}

/** Globs over the URL path: `*` within one segment, `**` any number of segments, `?` one character. */
export interface PaywallMatch {
  include: string[];
  exclude: string[];
}

/** At most this many one-time prices (passes, single articles) a paywall offers. */
export const MAX_ONE_TIME_PRICES = 5;

export type PaywallView = PaywallSettings & {
  id: string;
  name: string;
  /** Pass and single-article prices (billing's) offered beside the subscription plans. */
  oneTimePriceIds: string[];
  match: PaywallMatch;
  segmentId: string | null;
  priority: number;
  enabled: boolean;
  presentation: PaywallPresentation;
  copy: PaywallCopy | null;
  createdAt: string;
  updatedAt: string;
};

export interface PaywallDraft {
  name: string;
  type: PaywallType;
  config?: PaywallConfigInput;
  match: { include: string[]; exclude?: string[] };
  segmentId?: string | null;
  priority?: number;
  enabled?: boolean;
  presentation?: PaywallPresentation;
  copy?: PaywallCopy | null;
  oneTimePriceIds?: string[];
}

export type PaywallChanges = Partial<PaywallDraft>;

// Segments (decisions E7)

export const SEGMENT_ATTRIBUTES = [
  'authenticated',
  'subscriber',
  'referrer',
  'device',
  'country',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'path',
  'visit_count',
] as const;
export type SegmentAttribute = (typeof SEGMENT_ATTRIBUTES)[number];

export const SEGMENT_OPERATORS = ['eq', 'neq', 'contains', 'in', 'gt', 'lt'] as const;
export type SegmentOperator = (typeof SEGMENT_OPERATORS)[number];

export type SegmentValue = string | number | boolean | Array<string | number>;

export interface SegmentCondition {
  attribute: SegmentAttribute;
  operator: SegmentOperator;
  value: SegmentValue;
}

export interface SegmentView {
  id: string;
  name: string;
  match: 'all' | 'any';
  conditions: SegmentCondition[];
  createdAt: string;
  updatedAt: string;
}

export interface SegmentDraft {
  name: string;
  match: 'all' | 'any';
  conditions: SegmentCondition[];
}

export type SegmentChanges = Partial<SegmentDraft>;

/**
 * What a reader states of themselves where a segment decides away from an access check (the query
 * of `GET /api/v1/offers`, `reader` of a checkout): the access check's own parameters, read by
 * its rules (docs/access.md).
 */
export interface ReaderFacts {
  /** The page the reader is on, on a domain of the publication. */
  url?: string;
  /** The site's own visitor id. */
  userId?: string;
  referrer?: string;
  device?: VisitorDevice;
  country?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
}

/**
 * A reader as a segment sees them away from an access check (an offer limited to a segment,
 * docs/billing.md): the same facts a check of `url` would evaluate, the page's rules aside.
 */
export interface SegmentReader {
  /** The customer of a verified JWT (or the one a secret key names); their subscriptions, visits and linked visitor ids count. */
  customerId: string | null;
  /** The site's own visitor id (`userId`), at most 128 characters. */
  visitorId: string | null;
  /** The page the reader is on: its path is the `path` attribute; null: no path is known. */
  url: string | null;
  /** As the gateway derives them for a check (`visitorAttributesOf`). */
  attributes: VisitorAttributes;
}

// Experiments (decisions H4)

export const EXPERIMENT_STATUSES = ['draft', 'running', 'stopped'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

export interface VariantOverrides {
  /** Merged over the paywall's config (shallow); the result must be valid settings of the paywall's type. */
  config?: PaywallConfigInput;
  presentation?: PaywallPresentation;
  /** Merged over the paywall's copy (shallow). */
  copy?: PaywallCopy;
  /** An offer's code (billing's offers, docs/billing.md): the paywall offers it to the variant's visitors. */
  offerCode?: string;
}

export interface ExperimentVariant {
  id: string;
  name: string;
  /** Relative weight: a variant's share is its weight over the sum of the weights. */
  weight: number;
  overrides: VariantOverrides;
}

export interface ExperimentView {
  id: string;
  name: string;
  paywallId: string;
  status: ExperimentStatus;
  variants: ExperimentVariant[];
  startedAt: string | null;
  stoppedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ExperimentVariantDraft {
  /** Kept when given (a variant of this experiment); generated otherwise. */
  id?: string;
  name: string;
  weight: number;
  overrides?: VariantOverrides;
}

export interface ExperimentDraft {
  name: string;
  paywallId: string;
  variants: ExperimentVariantDraft[];
}

export interface ExperimentChanges {
  name?: string;
  /** Only while the experiment is a draft. */
  variants?: ExperimentVariantDraft[];
}

// Access check (spec 2.4, 4.2; decisions E1-E3)

export const VISITOR_DEVICES = ['desktop', 'mobile', 'tablet'] as const;
export type VisitorDevice = (typeof VISITOR_DEVICES)[number];
/** A visitor's country: an ISO 3166 alpha-2 code, either case. */
export const COUNTRY_CODE = /^[A-Za-z]{2}$/;

/** What segment conditions may look at besides the visitor and the URL (decisions E1). */
export interface VisitorAttributes {
  referrer?: string;
  device?: VisitorDevice;
  /** ISO 3166 alpha-2, upper case. */
  country?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
}

export interface AccessCheckRequest {
  publicationId: string;
  /** The publication's domains, as the gateway learnt them with the API key. */
  domains: string[];
  /** The checked page, read from the check's `url` by the gateway, which refused a URL no check may name. */
  page: CheckedPage;
  /** The customer of a verified JWT; it takes the place of `userId` as the visitor. */
  customerId: string | null;
  /** The JWT's `email_verified` claim: whether that customer's address was verified when the token was issued. */
  customerEmailVerified?: boolean;
  /** The site's own visitor id (at most 128 characters). */
  userId: string | null;
  attributes: VisitorAttributes;
  /** A staff member trying a URL from the dashboard: decided as any check, counted in no stats. */
  trial?: boolean;
  /** Who made the request, for the crawler policy: its User-Agent and network address. */
  client?: { userAgent: string | null; ip: string | null };
  /** A share link's token (`gh_share` of the page URL): decided by access alone, since an open is counted. */
  shareToken?: string;
}

// Crawler policy (docs/server.md)

/** Verified search-engine crawlers: `grant` the page, `meter` (decide as for any visitor) or `deny` it. */
export const SEARCH_CRAWLER_RULES = ['grant', 'meter', 'deny'] as const;
export type SearchCrawlerRule = (typeof SEARCH_CRAWLER_RULES)[number];
/** AI crawlers, known by User-Agent: `allow` the page, `deny` it, or `meter` (decide as for any visitor). */
export const AI_CRAWLER_RULES = ['allow', 'meter', 'deny'] as const;
export type AiCrawlerRule = (typeof AI_CRAWLER_RULES)[number];

/** Per publication; applies to pages a paywall covers. `meter` for both until changed. */
export interface CrawlerPolicy {
  searchEngines: SearchCrawlerRule;
  aiCrawlers: AiCrawlerRule;
  updatedAt: string | null;
}

export const ACCESS_REASONS = [
  'no_rule',
  'subscriber',
  'meter_allowance',
  'registered',
  'newsletter_passed',
  'data_passed',
  'soft',
  'blocked',
  'search_crawler_granted',
  'search_crawler_denied',
  'ai_crawler_allowed',
  'ai_crawler_denied',
  'shared_link',
  'pass',
  'single_article',
  'organisation',
] as const;
export type AccessReason = (typeof ACCESS_REASONS)[number];

/** The paywall that applied, with the visitor's experiment variant applied. */
export type PaywallRule = PaywallSettings & {
  paywallId: string;
  name: string;
  presentation: PaywallPresentation;
  copy: PaywallCopy | null;
  /** Pass and single-article prices offered beside the subscription plans (the prices on sale name their terms). */
  oneTimePriceIds: string[];
  /** The offer code the assigned experiment variant carries, when it carries one. */
  offerCode?: string;
};

export interface MeterState {
  limit: number;
  /** Distinct URLs viewed in the period, the view being granted included. */
  used: number;
  remaining: number;
  period: MeterPeriod;
  /** ISO time the next period starts (UTC). */
  resetsAt: string;
}

export interface ExperimentAssignment {
  experimentId: string;
  variantId: string;
}

export interface AccessCheckResult {
  granted: boolean;
  reason: AccessReason;
  /** When denied, and as a hint with `soft`. */
  paywallRule?: PaywallRule;
  customerId: string | null;
  /** When a metered paywall applied. */
  meter?: MeterState;
  /** When a running experiment covers the paywall that applied. */
  experiment?: ExperimentAssignment;
  /** With `shared_link`: who shared the page (their first name), for the recipient to see. */
  sharedBy?: { firstName: string };
  /** With `organisation`: whose seat or network the reader reads on, for "Access provided by …". */
  organisation?: { name: string };
}

// Shared articles (issue #25 item 3; docs/access.md#shared-articles)

/** The query parameter of a page URL that carries a share link's token; the SDK passes it to the check. */
export const SHARE_TOKEN_PARAMETER = 'gh_share';

/** Per publication, staff set; the defaults until changed. */
export interface ShareSettings {
  /** Whether subscribers may create share links at all. */
  enabled: boolean;
  /** How many times one link opens its page (1-1,000). */
  opensPerLink: number;
  /** How long a link works after its creation, in hours (1-8,760). */
  linkLifetimeHours: number;
  /** Links a subscriber may create per calendar month in UTC (1-1,000). */
  monthlyAllowance: number;
  updatedAt: string | null;
}

export type ShareSettingsChanges = Partial<Omit<ShareSettings, 'updatedAt'>>;

export interface CreateShareLinkRequest {
  publicationId: string;
  domains: string[];
  customerId: string;
  /** The sharer's first name as the recipient will see it. */
  firstName: string;
  url: string;
}

/** A share link as its sharer receives it; the token is shown once, only its hash is kept. */
export interface ShareLink {
  id: string;
  /** The page URL with `gh_share=<token>` added. */
  url: string;
  token: string;
  maxOpens: number;
  expiresAt: string;
  /** Links the sharer may still create this month. */
  remainingThisMonth: number;
}

/** Shared-article counts over a stats range. */
export interface ShareCounts {
  linksCreated: number;
  /** Reads a share link granted. */
  opens: number;
  /** `paywall_converted` track events sent from a page a share link's URL named (its token, of the publication). */
  conversions: number;
}

// Deciding at the gateway (issue 29: the edge decides from memory; docs/performance.md)

/** An enabled paywall as a check weighs it: its rule, where it applies, to whom, and its running experiment. */
export interface DecisionPaywall {
  rule: PaywallRule;
  /** In lower case: paths are matched as routers that ignore case serve them. */
  includeGlobs: string[];
  excludeGlobs: string[];
  segment: { match: 'all' | 'any'; conditions: SegmentCondition[] } | null;
  experiment: { id: string; variants: ExperimentVariant[] } | null;
}

/** A publication's access rules, as access decides by them and hands them to the gateway. */
export interface DecisionRules {
  /** Enabled paywalls, lowest priority first, then the oldest. */
  paywalls: DecisionPaywall[];
  crawlerPolicy: CrawlerPolicy;
}

/** What a check counts in the rollups. */
export type CheckCounter = 'checks_granted' | 'checks_denied' | 'crawler_checks';

/**
 * A check the gateway answered from its own memory, for access to record as if it had decided it:
 * the reader's visit (and the link of its visitor id to its customer) and the check's rollup, in
 * the hour access receives it (a fraction of a second later).
 */
export interface EdgeCheckRecord {
  publicationId: string;
  customerId: string | null;
  userId: string | null;
  /** The paywall that applied; null when none did (`no_rule`). */
  paywallId: string | null;
  experiment: ExperimentAssignment | null;
  counter: CheckCounter;
  /** The organisation that granted the check, by a seat or a network (its stats); null or absent otherwise. */
  organisation?: { organisationId: string; via: 'seat' | 'network' } | null;
}

// Track events (decisions E8)

export const TRACK_EVENT_TYPES = [
  'page_view',
  'paywall_shown',
  'paywall_dismissed',
  'paywall_converted',
  'newsletter_subscribe',
  'data_submit',
] as const;
export type TrackEventType = (typeof TRACK_EVENT_TYPES)[number];

/** At most this many events in one `POST /api/v1/events`. */
export const TRACK_EVENTS_PER_REQUEST = 50;
/** An event's `data`, serialised as JSON, is at most this many bytes. */
export const TRACK_EVENT_DATA_BYTES = 4096;

export interface TrackEvent {
  type: TrackEventType;
  url: string;
  userId?: string;
  paywallId?: string;
  experimentId?: string;
  variantId?: string;
  data?: Record<string, unknown>;
  /** ISO 8601; the time of receipt when absent. */
  occurredAt?: string;
}

export interface TrackEventsRequest {
  publicationId: string;
  domains: string[];
  /** The customer of a verified JWT, for every event of the request. */
  customerId: string | null;
  events: TrackEvent[];
  /** Whether the caller sent `{events: [...]}`, so field errors name `events[i].field`. */
  batch: boolean;
}

// Stats rollups (for the stats view, decisions H5)

export interface AccessCounts {
  checksGranted: number;
  checksDenied: number;
  /** Checks the crawler policy decided (search engines and AI crawlers): not in checksGranted or checksDenied. */
  crawlerChecks: number;
  shown: number;
  dismissed: number;
  converted: number;
}

export interface AccessStatsRequest {
  publicationId: string;
  /** ISO 8601; rounded down to the start of its hour or day (UTC). */
  from: string;
  /** ISO 8601, exclusive. */
  to: string;
  interval: 'day' | 'hour';
}

export interface AccessStats {
  from: string;
  to: string;
  interval: 'day' | 'hour';
  totals: AccessCounts;
  /** Every bucket of the range, oldest first, empty ones included. */
  series: Array<AccessCounts & { start: string }>;
  /** Paywalls with any count in the range; `name` is null for a deleted paywall. */
  paywalls: Array<AccessCounts & { paywallId: string; name: string | null }>;
  variants: Array<
    AccessCounts & { experimentId: string; variantId: string; paywallId: string; experimentName: string | null; variantName: string | null }
  >;
  /** Share links created and shared-link reads granted in the range. */
  sharing: ShareCounts;
}

/** A range of an organisation's stats: `from` rounded down to the start of its day (UTC), `to` exclusive. */
export interface OrganisationReadsRequest {
  organisationId: string;
  /** ISO 8601. */
  from: string;
  /** ISO 8601, exclusive. */
  to: string;
}

/** The checks an organisation granted in a range, and the readers it let in. */
export interface OrganisationReads {
  from: string;
  to: string;
  /** Checks granted with `reason: organisation` for it: by a member's seat, and from its networks (anonymous readers included). */
  reads: { total: number; bySeat: number; byNetwork: number };
  /** Distinct readers (a customer, or a visitor id of the site) it let in, each once over the range; a check without identity counts as a read only. */
  readers: number;
}

type InPublication<T = object> = T & { publicationId: string };

export const AccessRequests = {
  /** 400 validation_failed for a URL that is not absolute http(s); 403 url_not_in_publication for a foreign host. */
  Check: requestPattern<AccessCheckRequest, AccessCheckResult>('access.check'),
  /** Records and emits the events; 400 naming the field of the first invalid one, nothing recorded then. */
  TrackEvents: requestPattern<TrackEventsRequest, { accepted: number }>('access.events.track'),
  GetStats: requestPattern<AccessStatsRequest, AccessStats>('access.stats.get'),
  /** An organisation's reads and distinct readers in a range (its stats: docs/organisations.md#stats); 400 validation_failed for a bad range. */
  GetOrganisationReads: requestPattern<InPublication<OrganisationReadsRequest>, OrganisationReads>('access.stats.organisation-reads'),
  /** The rules access decides by, once every change notice accepted before the request reached the answering replica. */
  GetDecisionRules: requestPattern<InPublication, DecisionRules>('access.rules.get'),
  /** Checks a gateway answered itself: their visits and rollups, recorded as access records its own, once per `batchId` (a batch sent again keeps its id). */
  RecordEdgeChecks: requestPattern<{ batchId: string; checks: EdgeCheckRecord[] }, { recorded: number }>('access.checks.record'),

  /** In priority order (lowest first). */
  ListPaywalls: requestPattern<InPublication<PageRequest>, Page<PaywallView>>('access.paywalls.list'),
  GetPaywall: requestPattern<InPublication<{ paywallId: string }>, PaywallView>('access.paywalls.get'),
  CreatePaywall: requestPattern<InPublication<{ paywall: PaywallDraft }>, PaywallView>('access.paywalls.create'),
  UpdatePaywall: requestPattern<InPublication<{ paywallId: string; changes: PaywallChanges }>, PaywallView>('access.paywalls.update'),
  /** 409 conflict while a running experiment covers it; its other experiments go with it. */
  DeletePaywall: requestPattern<InPublication<{ paywallId: string }>, { deleted: true }>('access.paywalls.delete'),

  /** Newest first. */
  ListSegments: requestPattern<InPublication<PageRequest>, Page<SegmentView>>('access.segments.list'),
  GetSegment: requestPattern<InPublication<{ segmentId: string }>, SegmentView>('access.segments.get'),
  CreateSegment: requestPattern<InPublication<{ segment: SegmentDraft }>, SegmentView>('access.segments.create'),
  UpdateSegment: requestPattern<InPublication<{ segmentId: string; changes: SegmentChanges }>, SegmentView>('access.segments.update'),
  /**
   * Whether the reader is in the segment, decided as an access check decides it (the one
   * `segmentMatches` of `@gatehouse/access-decisions`, on the same facts). 404 not_found for a
   * segment not of the publication.
   */
  ReaderInSegment: requestPattern<InPublication<{ segmentId: string; reader: SegmentReader }>, { inSegment: boolean }>('access.segments.reader-in'),
  /** 409 conflict while a paywall uses it. */
  DeleteSegment: requestPattern<InPublication<{ segmentId: string }>, { deleted: true }>('access.segments.delete'),

  /** Newest first. */
  ListExperiments: requestPattern<InPublication<PageRequest>, Page<ExperimentView>>('access.experiments.list'),
  GetExperiment: requestPattern<InPublication<{ experimentId: string }>, ExperimentView>('access.experiments.get'),
  CreateExperiment: requestPattern<InPublication<{ experiment: ExperimentDraft }>, ExperimentView>('access.experiments.create'),
  UpdateExperiment: requestPattern<InPublication<{ experimentId: string; changes: ExperimentChanges }>, ExperimentView>(
    'access.experiments.update',
  ),
  GetCrawlerPolicy: requestPattern<InPublication, CrawlerPolicy>('access.crawler-policy.get'),
  UpdateCrawlerPolicy: requestPattern<InPublication<{ changes: Partial<Pick<CrawlerPolicy, 'searchEngines' | 'aiCrawlers'>> }>, CrawlerPolicy>(
    'access.crawler-policy.update',
  ),

  /**
   * A subscriber's share link for a page: 403 `share_not_subscriber` for a customer who is not a
   * subscriber, 403 `sharing_disabled` when staff turned sharing off, 429 `share_allowance_exceeded`
   * past the monthly allowance; the URL as for a check (400, 403).
   */
  CreateShareLink: requestPattern<CreateShareLinkRequest, ShareLink>('access.share-links.create'),
  GetShareSettings: requestPattern<InPublication, ShareSettings>('access.share-settings.get'),
  UpdateShareSettings: requestPattern<InPublication<{ changes: ShareSettingsChanges }>, ShareSettings>('access.share-settings.update'),

  /** 409 conflict while running. */
  DeleteExperiment: requestPattern<InPublication<{ experimentId: string }>, { deleted: true }>('access.experiments.delete'),
  /** draft → running; 409 conflict from any other status or while another experiment runs on the paywall. */
  StartExperiment: requestPattern<InPublication<{ experimentId: string }>, ExperimentView>('access.experiments.start'),
  /** running → stopped; 409 conflict from any other status. */
  StopExperiment: requestPattern<InPublication<{ experimentId: string }>, ExperimentView>('access.experiments.stop'),
} as const;
