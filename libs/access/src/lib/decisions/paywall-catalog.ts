import { Injectable } from '@nestjs/common';
import type { ExperimentVariant, PaywallConfig, PaywallCopy, PaywallPresentation, PaywallRule, PaywallType, SegmentCondition } from '@gatehouse/contracts';
import { DataSource } from 'typeorm';
import { globMatches } from '../paywalls/path-glob';

/** An enabled paywall as a check weighs it: its rule, where it applies, to whom, and its running experiment. */
export interface CandidatePaywall {
  rule: PaywallRule;
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

/** Reads the publication's enabled paywalls for each check, uncached, so an admin's change applies to the very next check. */
@Injectable()
export class PaywallCatalog {
  constructor(private readonly dataSource: DataSource) {}

  /** Lowest priority first, then the oldest. */
  async enabledPaywalls(publicationId: string): Promise<CandidatePaywall[]> {
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
      includeGlobs: row.include_globs,
      excludeGlobs: row.exclude_globs,
      segment: row.segment_match ? { match: row.segment_match, conditions: row.segment_conditions ?? [] } : null,
      experiment: row.experiment_id ? { id: row.experiment_id, variants: row.experiment_variants ?? [] } : null,
    }));
  }
}

/** A paywall covers a path that one of its include globs matches and none of its exclude globs does. */
export function coversPath(candidate: Pick<CandidatePaywall, 'includeGlobs' | 'excludeGlobs'>, path: string): boolean {
  return candidate.includeGlobs.some((glob) => globMatches(glob, path)) && !candidate.excludeGlobs.some((glob) => globMatches(glob, path));
}
