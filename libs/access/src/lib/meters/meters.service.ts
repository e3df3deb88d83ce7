import { Injectable } from '@nestjs/common';
import { ReadModels, type ReadModel } from '@gatehouse/bus';
import type { MeterState, MeteredConfig } from '@gatehouse/contracts';
import { DataSource } from 'typeorm';
import { GroupCommit, type SharedStatement } from '../shared/group-commit';
import type { Reader } from '../readers/reader';
import type { PageAddress } from '@gatehouse/access-decisions';
import { calendarPeriod } from './meter-period';

export interface MeterOutcome {
  granted: boolean;
  meter: MeterState;
}

/** How long a replica answers a re-read page from memory before reading the meter again (other replicas count too). */
const REMEMBERED_MS = 5_000;

/** A page a reader views through a metered paywall: counted if new and the meter allows. */
interface NewPage {
  publication_id: string;
  paywall_id: string;
  reader_key: string;
  /** Every key of the reader: its views under any of them count. */
  reader_keys: string[];
  page: string;
  period_start: Date;
  period_end: Date;
  viewed_at: Date;
  limit: number;
}

/**
 * Reads each reader's meter afresh and counts each page the meter allows, for many readers in one
 * statement: the meter before counting (`used`, `seen`); the page was counted when it was not seen
 * and `used` was under the limit.
 */
const consumeMeters: SharedStatement<NewPage, { used: number; seen: boolean }> = async (manager, pages) => {
  const rows: Array<{ used: number; seen: boolean }> = await manager.query(
    `WITH page AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS p(n int, publication_id uuid, paywall_id uuid, reader_key text, reader_keys text[], page text,
                                                        period_start timestamptz, period_end timestamptz, viewed_at timestamptz, "limit" int)),
     usage AS (
       SELECT page.*, meter.used, meter.seen
         FROM page CROSS JOIN LATERAL (
           SELECT count(DISTINCT v.page)::int AS used, coalesce(bool_or(v.page = page.page), false) AS seen
             FROM meter_views v
            WHERE v.publication_id = page.publication_id AND v.paywall_id = page.paywall_id AND v.reader_key = ANY(page.reader_keys)
              AND v.viewed_at >= page.period_start AND v.viewed_at < page.period_end) AS meter),
     counted AS (
       INSERT INTO meter_views (publication_id, paywall_id, reader_key, page, viewed_at)
       SELECT publication_id, paywall_id, reader_key, page, viewed_at FROM usage WHERE NOT seen AND used < "limit")
     SELECT used, seen FROM usage ORDER BY n`,
    [JSON.stringify(pages.map((page, n) => ({ n, ...page })))],
  );
  return rows;
};

interface Remembered {
  /** Pages known to be counted in the period: they stay counted. */
  pages: Set<string>;
  used: number;
}

/**
 * Metered paywalls (decisions E5): each paywall meters the distinct URLs a reader viewed through it
 * in the current calendar period. A URL already counted in the period is granted again without
 * counting twice; a reader without identity has used the whole meter.
 */
@Injectable()
export class MetersService {
  private readonly commits: GroupCommit;
  private readonly remembered: ReadModel<string, Remembered>;

  constructor(dataSource: DataSource, readModels: ReadModels) {
    this.commits = new GroupCommit(dataSource);
    this.remembered = readModels.define({ name: 'counted-pages', max: 100_000, freshMs: REMEMBERED_MS });
  }

  async consume(reader: Reader, paywallId: string, page: PageAddress, config: MeteredConfig, now: Date): Promise<MeterOutcome> {
    const { start, end, resetsAt } = calendarPeriod(now, config.period);
    const state = (used: number): MeterState => ({
      limit: config.limit,
      used,
      remaining: Math.max(config.limit - used, 0),
      period: config.period,
      resetsAt,
    });
    if (!reader.key) return { granted: false, meter: state(config.limit) };
    const readerKey = reader.key;

    // A page counted in the period stays counted: a page this replica saw counted a moment ago is
    // granted from memory (its `used` may miss what other replicas counted in those seconds).
    const memoryKey = `${reader.publicationId} ${paywallId} ${start.getTime()} ${reader.keys.join(' ')}`;
    const known = this.remembered.peek(memoryKey);
    if (known && known.pages.has(page.key)) return { granted: true, meter: state(known.used) };
    const remember = (used: number, counted: boolean) => {
      const pages = this.remembered.peek(memoryKey)?.pages ?? new Set<string>();
      if (counted) pages.add(page.key);
      this.remembered.set(memoryKey, { pages, used });
    };

    // Counted durably before the answer when new, in a transaction and a statement shared with the
    // checks that came meanwhile: a page counted before and a used-up meter are answered by the
    // same statement, which then writes nothing. One reader's checks take turns under its lock, so
    // two new URLs at the last free view cannot both get it.
    const { used, seen } = await this.commits.together(
      consumeMeters,
      { publication_id: reader.publicationId, paywall_id: paywallId, reader_key: readerKey, reader_keys: reader.keys, page: page.key, period_start: start, period_end: end, viewed_at: now, limit: config.limit },
      `meter:${reader.publicationId}:${paywallId}:${readerKey}`,
    );
    const outcome = seen ? { granted: true, meter: state(used) } : used < config.limit ? { granted: true, meter: state(used + 1) } : { granted: false, meter: state(used) };
    remember(outcome.meter.used, outcome.granted);
    return outcome;
  }
}
