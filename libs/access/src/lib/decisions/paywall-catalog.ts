import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  InternalEvents,
  type ExperimentVariant,
  type PaywallConfig,
  type PaywallCopy,
  type PaywallPresentation,
  type PaywallRule,
  type PaywallType,
  type SegmentCondition,
} from '@gatehouse/contracts';
import { EVENT_TRANSPORT, Outbox, OutboxRelay, type EventSubscription, type EventTransport } from '@gatehouse/bus';
import { DataSource } from 'typeorm';
import { globMatches } from '../paywalls/path-glob';

/** An enabled paywall as a check weighs it: its rule, where it applies, to whom, and its running experiment. */
export interface CandidatePaywall {
  rule: PaywallRule;
  /** In lower case: paths are matched as routers that ignore case serve them (`PageAddress.matchPath`). */
  includeGlobs: string[];
  excludeGlobs: string[];
  segment: { match: 'all' | 'any'; conditions: SegmentCondition[] } | null;
  experiment: { id: string; variants: ExperimentVariant[] } | null;
}

interface CandidateRow {
  id: string;
  name: string;
  type: PaywallType;
  config: PaywallConfig;
  presentation: PaywallPresentation;
  copy: PaywallCopy | null;
  include_globs: string[];
  exclude_globs: string[];
  segment_match: 'all' | 'any' | null;
  segment_conditions: SegmentCondition[] | null;
  experiment_id: string | null;
  experiment_variants: ExperimentVariant[] | null;
}

/** The safety net behind the broadcast (a replica that missed it, a writer that died before sending it). */
const FRESH_MS = 60_000;
const MAX_PUBLICATIONS = 10_000;

/**
 * The publications' enabled paywalls with their segments and running experiments, kept in memory
 * on each replica. Every write of a paywall, segment or experiment goes through `changed`, which
 * drops this replica's copy and broadcasts `internal.access.rules.changed` before the write is
 * answered, so the next check on any replica reads the rules afresh.
 */
@Injectable()
export class PaywallCatalog implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PaywallCatalog.name);
  private readonly cached = new Map<string, { paywalls: Promise<CandidatePaywall[]>; loadedAt: number }>();
  private subscription?: EventSubscription;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_TRANSPORT) private readonly events: EventTransport,
    private readonly outbox: Outbox,
    private readonly relay: OutboxRelay,
  ) {}

  async onModuleInit(): Promise<void> {
    this.subscription = await this.events.listen([InternalEvents.AccessRulesChanged.name], async (envelope) => {
      if (envelope.publicationId) this.cached.delete(envelope.publicationId);
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
  }

  /** Lowest priority first, then the oldest. */
  enabledPaywalls(publicationId: string): Promise<CandidatePaywall[]> {
    const entry = this.cached.get(publicationId);
    if (entry && Date.now() - entry.loadedAt < FRESH_MS) return entry.paywalls;
    const paywalls = this.load(publicationId);
    if (this.cached.size >= MAX_PUBLICATIONS) this.cached.delete(this.cached.keys().next().value as string);
    this.cached.set(publicationId, { paywalls, loadedAt: Date.now() });
    // A failed read is not kept: the next check reads again.
    paywalls.catch(() => this.cached.get(publicationId)?.paywalls === paywalls && this.cached.delete(publicationId));
    return paywalls;
  }

  /**
   * After a committed write to the publication's rules: forgets them here, then has every replica
   * forget them (the event goes through the outbox, so a bus outage delays it but does not lose it).
   */
  async changed<T>(publicationId: string, written: Promise<T>): Promise<T> {
    const result = await written;
    this.cached.delete(publicationId);
    await this.dataSource.transaction((manager) => this.outbox.add(manager, InternalEvents.AccessRulesChanged, {}, publicationId));
    await this.relay.flush().catch((err: unknown) => this.logger.warn(`Rules change of ${publicationId} not broadcast yet: ${String(err)}`));
    return result;
  }

  private async load(publicationId: string): Promise<CandidatePaywall[]> {
    const rows: CandidateRow[] = await this.dataSource.query(
      `SELECT p.id, p.name, p.type, p.config, p.presentation, p.copy, p.include_globs, p.exclude_globs,
              s.match AS segment_match, s.conditions AS segment_conditions, e.id AS experiment_id, e.variants AS experiment_variants
         FROM paywalls p
         LEFT JOIN segments s ON s.id = p.segment_id
         LEFT JOIN experiments e ON e.paywall_id = p.id AND e.status = 'running'
        WHERE p.publication_id = $1 AND p.enabled
        ORDER BY p.priority, p.created_at, p.id`,
      [publicationId],
    );
    return rows.map((row) => ({
      rule: { paywallId: row.id, name: row.name, type: row.type, config: row.config, presentation: row.presentation, copy: row.copy },
      includeGlobs: row.include_globs.map(lowerCase),
      excludeGlobs: row.exclude_globs.map(lowerCase),
      segment: row.segment_match ? { match: row.segment_match, conditions: row.segment_conditions ?? [] } : null,
      experiment: row.experiment_id ? { id: row.experiment_id, variants: row.experiment_variants ?? [] } : null,
    }));
  }
}

const lowerCase = (glob: string) => glob.toLowerCase();

/** A paywall covers a path (a `matchPath`) that one of its include globs matches and none of its exclude globs does. */
export function coversPath(candidate: Pick<CandidatePaywall, 'includeGlobs' | 'excludeGlobs'>, matchPath: string): boolean {
  return candidate.includeGlobs.some((glob) => globMatches(glob, matchPath)) && !candidate.excludeGlobs.some((glob) => globMatches(glob, matchPath));
}
