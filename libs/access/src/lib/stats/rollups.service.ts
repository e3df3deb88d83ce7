import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ExperimentAssignment } from '@gatehouse/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { FlushSchedule } from '../shared/flush-schedule';
import { inKeyOrder, insertRows } from '../shared/multi-row-insert';

export const COUNTERS = ['checks_granted', 'checks_denied', 'crawler_checks', 'shown', 'dismissed', 'converted'] as const;
export type Counter = (typeof COUNTERS)[number];

/** One count to add: to a paywall (null for checks no paywall applied to), and to its variant when an experiment covers it. */
export interface Tally {
  at: Date;
  paywallId: string | null;
  experiment: ExperimentAssignment | null;
  counter: Counter;
}

interface RollupRow {
  publicationId: string;
  hour: Date;
  paywallId: string | null;
  experimentId: string | null;
  variantId: string | null;
  counts: Record<Counter, number>;
}

const HOUR_MS = 3600 * 1000;

/**
 * Hourly rollups per paywall and per variant, which the stats view reads through GetStats. Each
 * tally adds to its paywall's row (variant null) and, with an experiment, to its variant's row, so
 * totals and per-paywall counts never count a variant twice. Checks' tallies are summed in memory
 * and written at most a second later (and at shutdown): a crash loses at most that second of
 * counts. Track events' tallies are written in the transaction that accepts them.
 */
@Injectable()
export class RollupsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RollupsService.name);
  private buffered = new Map<string, RollupRow>();
  private readonly schedule = new FlushSchedule(
    () => this.writeBuffered(),
    (err) => this.logger.warn(`Rollups not written yet: ${String(err)}`),
  );

  constructor(private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    this.schedule.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.schedule.stop();
  }

  /** Durably, in the caller's transaction. */
  async add(manager: EntityManager, publicationId: string, tallies: readonly Tally[]): Promise<void> {
    const rows = new Map<string, RollupRow>();
    for (const tally of tallies) addTally(rows, publicationId, tally);
    await write(manager, rows);
  }

  /** In memory, until the next flush. */
  count(publicationId: string, tally: Tally): void {
    addTally(this.buffered, publicationId, tally);
  }

  /** Writes what was counted in memory so far; one flush at a time. */
  flush(): Promise<void> {
    return this.schedule.flush();
  }

  private async writeBuffered(): Promise<void> {
    if (this.buffered.size === 0) return;
    const batch = this.buffered;
    this.buffered = new Map();
    try {
      await write(this.dataSource.manager, batch);
    } catch (err) {
      for (const [key, row] of batch) {
        const later = this.buffered.get(key);
        if (later) for (const c of COUNTERS) later.counts[c] += row.counts[c];
        else this.buffered.set(key, row);
      }
      throw err;
    }
  }
}

function addTally(rows: Map<string, RollupRow>, publicationId: string, tally: Tally): void {
  // Every check of a replica comes here: the row's key is built from numbers, its Date only with a new row.
  const hourMs = Math.floor(tally.at.getTime() / HOUR_MS) * HOUR_MS;
  bump(rows, publicationId, hourMs, tally, null, null);
  if (tally.experiment && tally.paywallId) bump(rows, publicationId, hourMs, tally, tally.experiment.experimentId, tally.experiment.variantId);
}

function bump(rows: Map<string, RollupRow>, publicationId: string, hourMs: number, tally: Tally, experimentId: string | null, variantId: string | null): void {
  const key = `${publicationId}|${hourMs}|${tally.paywallId ?? ''}|${variantId ?? ''}`;
  let row = rows.get(key);
  if (!row) {
    row = { publicationId, hour: new Date(hourMs), paywallId: tally.paywallId, experimentId, variantId, counts: Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<Counter, number> };
    rows.set(key, row);
  }
  row.counts[tally.counter] += 1;
}

/** Always in key order, so two transactions adding to the same rows cannot deadlock. */
function write(manager: EntityManager, rows: ReadonlyMap<string, RollupRow>): Promise<void> {
  return insertRows(
    manager,
    `hourly_stats (publication_id, hour, paywall_id, experiment_id, variant_id, ${COUNTERS.join(', ')})`,
    inKeyOrder(rows).map((row) => [row.publicationId, row.hour, row.paywallId, row.experimentId, row.variantId, ...COUNTERS.map((c) => row.counts[c])]),
    `ON CONFLICT (publication_id, hour, paywall_id, variant_id)
     DO UPDATE SET ${COUNTERS.map((c) => `${c} = hourly_stats.${c} + EXCLUDED.${c}`).join(', ')}`,
  );
}
