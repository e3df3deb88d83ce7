import { Injectable } from '@nestjs/common';
import {
  InternalEvents,
  type CrawlerPolicy,
  type ExperimentVariant,
  type PaywallConfig,
  type PaywallCopy,
  type PaywallPresentation,
  type PaywallRule,
  type PaywallType,
  type SegmentCondition,
} from '@gatehouse/contracts';
import { on, ReadModels, type ReadModel } from '@gatehouse/bus';
import { storedSettings } from '@gatehouse/contracts/paywall-config';
import { DataSource } from 'typeorm';
import { crawlerPolicyOf } from '../crawlers/crawler-policy.service';
import { applyVariant } from '../experiments/variant-assignment';
import { GlobSet } from '../paywalls/path-glob';

/** An enabled paywall as a check weighs it: its rule, where it applies, to whom, and its running experiment. */
export interface CandidatePaywall {
  rule: PaywallRule;
  /** In lower case: paths are matched as routers that ignore case serve them (`PageAddress.matchPath`). */
  includeGlobs: string[];
  excludeGlobs: string[];
  segment: { match: 'all' | 'any'; conditions: SegmentCondition[] } | null;
  /** Each variant with the rule it shows, worked out once when the rules are loaded. */
  experiment: { id: string; variants: Array<ExperimentVariant & { rule: PaywallRule }> } | null;
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

/** The publication's access rules as a check weighs them. */
export interface PublicationRules {
  /** Enabled paywalls, lowest priority first, then the oldest. */
  paywalls: CandidatePaywall[];
  crawlerPolicy: CrawlerPolicy;
  /** The paywalls that cover the path (an include glob matches it and no exclude glob does), in order. */
  covering(path: string): CandidatePaywall[];
}

/**
 * The publications' access rules (enabled paywalls with their segments and running experiments,
 * and the crawler policy), kept in memory on each replica. Every write to them adds
 * `internal.access.rules.changed` in its transaction (RulesWrites), and every replica forgets the
 * publication's rules on hearing it; a minute's freshness is the safety net behind it.
 */
@Injectable()
export class PaywallCatalog {
  private readonly rules: ReadModel<string, PublicationRules>;

  constructor(
    private readonly dataSource: DataSource,
    readModels: ReadModels,
  ) {
    this.rules = readModels.define({
      name: 'access-rules',
      load: (publicationId) => this.load(publicationId),
      max: 10_000,
      freshMs: 60_000,
      // The database unreachable: checks go on deciding by the rules last read.
      staleOnFailure: { retryMs: 5_000 },
      changedBy: [on(InternalEvents.AccessRulesChanged, (event, model) => event.publicationId && model.forget(event.publicationId))],
    });
  }

  rulesOf(publicationId: string): Promise<PublicationRules> {
    return this.rules.get(publicationId);
  }

  /** Lowest priority first, then the oldest. */
  async enabledPaywalls(publicationId: string): Promise<CandidatePaywall[]> {
    return (await this.rules.get(publicationId)).paywalls;
  }

  private async load(publicationId: string): Promise<PublicationRules> {
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
    const paywalls = rows.map((row): CandidatePaywall => {
      const rule: PaywallRule = { paywallId: row.id, name: row.name, ...storedSettings(row.type, row.config), presentation: row.presentation, copy: row.copy };
      return {
        rule,
        includeGlobs: row.include_globs.map(lowerCase),
        excludeGlobs: row.exclude_globs.map(lowerCase),
        segment: row.segment_match ? { match: row.segment_match, conditions: row.segment_conditions ?? [] } : null,
        experiment: row.experiment_id
          ? { id: row.experiment_id, variants: (row.experiment_variants ?? []).map((variant) => ({ ...variant, rule: applyVariant(rule, variant.overrides) })) }
          : null,
      };
    });
    return { paywalls, crawlerPolicy: await crawlerPolicyOf(this.dataSource, publicationId), covering: coverageOf(paywalls) };
  }
}

/** Every glob of every paywall in one GlobSet: a path is read once, whatever the number of paywalls. */
function coverageOf(paywalls: CandidatePaywall[]): (path: string) => CandidatePaywall[] {
  const globs: string[] = [];
  const ranges = paywalls.map(({ includeGlobs, excludeGlobs }) => {
    const include = { from: globs.push(...includeGlobs) - includeGlobs.length, to: globs.length };
    const exclude = { from: globs.push(...excludeGlobs) - excludeGlobs.length, to: globs.length };
    return { include, exclude };
  });
  const set = new GlobSet(globs);
  const any = (matched: (glob: number) => boolean, { from, to }: { from: number; to: number }) => {
    for (let glob = from; glob < to; glob++) if (matched(glob)) return true;
    return false;
  };
  return (path) => {
    const matched = set.match(path);
    return paywalls.filter((_, i) => any(matched, ranges[i].include) && !any(matched, ranges[i].exclude));
  };
}

const lowerCase = (glob: string) => glob.toLowerCase();
