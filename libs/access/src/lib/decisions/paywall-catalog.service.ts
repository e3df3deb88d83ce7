import { Injectable } from '@nestjs/common';
import { compileRules, type PublicationRules } from '@gatehouse/access-decisions';
import {
  InternalEvents,
  type DecisionPaywall,
  type ExperimentVariant,
  type PaywallConfig,
  type PaywallCopy,
  type PaywallPresentation,
  type PaywallType,
  type SegmentCondition,
} from '@gatehouse/contracts';
import { on, ReadModels, type ReadModel } from '@gatehouse/bus';
import { storedSettings } from '@gatehouse/contracts/paywall-config';
import { DataSource } from 'typeorm';
import { crawlerPolicyOf } from '../crawlers/crawler-policy.service';

interface CandidateRow {
  id: string;
  name: string;
  type: PaywallType;
  config: PaywallConfig;
  presentation: PaywallPresentation;
  copy: PaywallCopy | null;
  one_time_price_ids: string[];
  include_globs: string[];
  exclude_globs: string[];
  segment_match: 'all' | 'any' | null;
  segment_conditions: SegmentCondition[] | null;
  experiment_id: string | null;
  experiment_variants: ExperimentVariant[] | null;
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

  private async load(publicationId: string): Promise<PublicationRules> {
    const rows: CandidateRow[] = await this.dataSource.query(
      `SELECT p.id, p.name, p.type, p.config, p.presentation, p.copy, p.one_time_price_ids, p.include_globs, p.exclude_globs,
              s.match AS segment_match, s.conditions AS segment_conditions, e.id AS experiment_id, e.variants AS experiment_variants
         FROM paywalls p
         LEFT JOIN segments s ON s.id = p.segment_id
         LEFT JOIN experiments e ON e.paywall_id = p.id AND e.status = 'running'
        WHERE p.publication_id = $1 AND p.enabled
        ORDER BY p.priority, p.created_at, p.id`,
      [publicationId],
    );
    const paywalls = rows.map(
      (row): DecisionPaywall => ({
        rule: { paywallId: row.id, name: row.name, ...storedSettings(row.type, row.config), presentation: row.presentation, copy: row.copy, oneTimePriceIds: row.one_time_price_ids },
        includeGlobs: row.include_globs.map(lowerCase),
        excludeGlobs: row.exclude_globs.map(lowerCase),
        segment: row.segment_match ? { match: row.segment_match, conditions: row.segment_conditions ?? [] } : null,
        experiment: row.experiment_id ? { id: row.experiment_id, variants: row.experiment_variants ?? [] } : null,
      }),
    );
    return compileRules({ paywalls, crawlerPolicy: await crawlerPolicyOf(this.dataSource, publicationId) });
  }
}

const lowerCase = (glob: string) => glob.toLowerCase();
