import { Injectable } from '@nestjs/common';
import type { ExperimentAssignment } from '@gatehouse/contracts';
import type { EntityManager } from 'typeorm';

export const COUNTERS = ['checks_granted', 'checks_denied', 'crawler_checks', 'shown', 'dismissed', 'converted'] as const;
export type Counter = (typeof COUNTERS)[number];

/** One count to add: to a paywall (null for checks no paywall applied to), and to its variant when an experiment covers it. */
export interface Tally {
  at: Date;
  paywallId: string | null;
  experiment: ExperimentAssignment | null;
  counter: Counter;
}

const HOUR_MS = 3600 * 1000;

/**
 * Hourly rollups per paywall and per variant, which the stats view reads through GetStats. Each
 * tally adds to its paywall's row (variant null) and, with an experiment, to its variant's row, so
 * totals and per-paywall counts never count a variant twice.
 */
@Injectable()
export class RollupsService {
  async add(manager: EntityManager, publicationId: string, tallies: readonly Tally[]): Promise<void> {
    const rows = new Map<string, { hour: Date; paywallId: string | null; experimentId: string | null; variantId: string | null; counts: Record<Counter, number> }>();
    const bump = (hour: Date, paywallId: string | null, experimentId: string | null, variantId: string | null, counter: Counter) => {
      const key = `${hour.toISOString()}|${paywallId ?? ''}|${variantId ?? ''}`;
      const row = rows.get(key) ?? { hour, paywallId, experimentId, variantId, counts: Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<Counter, number> };
      row.counts[counter] += 1;
      rows.set(key, row);
    };
    for (const tally of tallies) {
      const hour = new Date(Math.floor(tally.at.getTime() / HOUR_MS) * HOUR_MS);
      bump(hour, tally.paywallId, null, null, tally.counter);
      if (tally.experiment && tally.paywallId) bump(hour, tally.paywallId, tally.experiment.experimentId, tally.experiment.variantId, tally.counter);
    }
    if (rows.size === 0) return;
    // Always in key order, so two transactions adding to the same rows cannot deadlock.
    const ordered = [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
    const width = 5 + COUNTERS.length;
    const values = ordered.map((_, i) => `(${Array.from({ length: width }, (__, j) => `$${i * width + j + 1}`).join(', ')})`);
    const params = ordered.flatMap((row) => [publicationId, row.hour, row.paywallId, row.experimentId, row.variantId, ...COUNTERS.map((c) => row.counts[c])]);
    await manager.query(
      `INSERT INTO hourly_stats (publication_id, hour, paywall_id, experiment_id, variant_id, ${COUNTERS.join(', ')})
       VALUES ${values.join(', ')}
       ON CONFLICT (publication_id, hour, paywall_id, variant_id)
       DO UPDATE SET ${COUNTERS.map((c) => `${c} = hourly_stats.${c} + EXCLUDED.${c}`).join(', ')}`,
      params,
    );
  }
}
