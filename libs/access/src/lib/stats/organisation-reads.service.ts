import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Events, type FieldError, type OrganisationReads, type OrganisationReadsRequest } from '@gatehouse/contracts';
import type { OrganisationGrantVia } from '@gatehouse/access-decisions';
import { EventConsumers } from '@gatehouse/bus';
import { isUuid } from '@gatehouse/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { FlushSchedule } from '../shared/flush-schedule';
import { inKeyOrder, insertRows } from '../shared/multi-row-insert';
import { rejectInvalid } from '../shared/invalid';

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** The longest range of an organisation's stats: a year and a day. */
const MAX_RANGE_MS = 366 * DAY_MS;

/** One check an organisation granted. */
export interface OrganisationGrant {
  organisationId: string;
  via: OrganisationGrantVia;
}

interface ReadsRow {
  publicationId: string;
  organisationId: string;
  hour: Date;
  bySeat: number;
  byNetwork: number;
}

interface ReaderRow {
  publicationId: string;
  organisationId: string;
  day: Date;
  readerKey: string;
}

/**
 * Organisations' reads (issue #26 item 5): each check an organisation granted, at access or at a
 * gateway, counts on its hour, by seat or by network, and its reader (when the check names one) on
 * its day. Summed in memory and written with the rollups' schedule (at most a second later, and at
 * shutdown): no write per check. An organisation's deletion (billing's `organisation.deleted`)
 * deletes its reads and readers.
 */
@Injectable()
export class OrganisationReadsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(OrganisationReadsService.name);
  private reads = new Map<string, ReadsRow>();
  private readers = new Map<string, ReaderRow>();
  private readonly schedule = new FlushSchedule(
    () => this.writeBuffered(),
    (err) => this.logger.warn(`Organisations' reads not written yet: ${String(err)}`),
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly consumers: EventConsumers,
  ) {}

  async onModuleInit(): Promise<void> {
    this.schedule.start();
    await this.consumers.subscribe('access-organisation-reads', [Events.OrganisationDeleted], ({ publicationId, data }, manager) =>
      publicationId ? this.forget(manager, publicationId, data.organisationId) : Promise.resolve(),
    );
  }

  /**
   * A deleted organisation's reads and readers go, this replica's unwritten counts of it included:
   * in turn with the flushes, so a flush on its way lands before the delete rather than after it.
   */
  private async forget(manager: EntityManager, publicationId: string, organisationId: string): Promise<void> {
    const its = (row: { publicationId: string; organisationId: string }) => row.publicationId === publicationId && row.organisationId === organisationId;
    await this.schedule.inTurn(async () => {
      for (const [key, row] of this.reads) if (its(row)) this.reads.delete(key);
      for (const [key, row] of this.readers) if (its(row)) this.readers.delete(key);
    });
    await manager.query('DELETE FROM organisation_reads WHERE publication_id = $1 AND organisation_id = $2', [publicationId, organisationId]);
    await manager.query('DELETE FROM organisation_readers WHERE publication_id = $1 AND organisation_id = $2', [publicationId, organisationId]);
  }

  onApplicationShutdown(): Promise<void> {
    return this.schedule.stop();
  }

  /** In memory, until the next flush. `readerKey`: the reader's (`readerKey`), null without identity. */
  count(publicationId: string, grant: OrganisationGrant, readerKey: string | null, at: Date): void {
    const { organisationId, via } = grant;
    // A grant of the hot path: its rows' keys are built from numbers, their Dates only with a new row.
    const hourMs = Math.floor(at.getTime() / HOUR_MS) * HOUR_MS;
    const key = `${publicationId}|${organisationId}|${hourMs}`;
    let row = this.reads.get(key);
    if (!row) {
      row = { publicationId, organisationId, hour: new Date(hourMs), bySeat: 0, byNetwork: 0 };
      this.reads.set(key, row);
    }
    if (via === 'seat') row.bySeat += 1;
    else row.byNetwork += 1;
    if (readerKey) {
      const dayMs = Math.floor(hourMs / DAY_MS) * DAY_MS;
      const readerRowKey = `${publicationId}|${organisationId}|${dayMs}|${readerKey}`;
      if (!this.readers.has(readerRowKey)) this.readers.set(readerRowKey, { publicationId, organisationId, day: new Date(dayMs), readerKey });
    }
  }

  /** Writes what was counted in memory so far; one flush at a time. */
  flush(): Promise<void> {
    return this.schedule.flush();
  }

  /** The organisation's reads and distinct readers in the range, this replica's last counts included. */
  async readsOf(publicationId: string, request: OrganisationReadsRequest): Promise<OrganisationReads> {
    const { from, to } = checkedRange(request);
    if (!isUuid(request.organisationId)) return { from: from.toISOString(), to: to.toISOString(), reads: { total: 0, bySeat: 0, byNetwork: 0 }, readers: 0 };
    await this.flush();
    const range = [publicationId, request.organisationId, from, to];
    const [[reads], [readers]]: [Array<{ by_seat: string; by_network: string }>, Array<{ readers: string }>] = await Promise.all([
      this.dataSource.query(
        `SELECT coalesce(sum(seat_reads), 0) AS by_seat, coalesce(sum(network_reads), 0) AS by_network
           FROM organisation_reads WHERE publication_id = $1 AND organisation_id = $2 AND hour >= $3 AND hour < $4`,
        range,
      ),
      // Days past retention kept only their count of readers: there a reader counts once a day.
      this.dataSource.query(
        `SELECT (SELECT count(DISTINCT reader_key) FROM organisation_readers WHERE publication_id = $1 AND organisation_id = $2 AND day >= $3 AND day < $4)
              + (SELECT coalesce(sum(folded_readers), 0) FROM organisation_reads WHERE publication_id = $1 AND organisation_id = $2 AND hour >= $3 AND hour < $4) AS readers`,
        range,
      ),
    ]);
    const bySeat = Number(reads.by_seat);
    const byNetwork = Number(reads.by_network);
    return { from: from.toISOString(), to: to.toISOString(), reads: { total: bySeat + byNetwork, bySeat, byNetwork }, readers: Number(readers.readers) };
  }

  private async writeBuffered(): Promise<void> {
    if (this.reads.size === 0 && this.readers.size === 0) return;
    const reads = this.reads;
    const readers = this.readers;
    this.reads = new Map();
    this.readers = new Map();
    try {
      await this.dataSource.transaction(async (manager) => {
        await writeReads(manager, reads);
        await writeReaders(manager, readers);
      });
    } catch (err) {
      // Kept for the next flush, added to what was counted meanwhile.
      for (const [key, row] of reads) {
        const later = this.reads.get(key);
        if (later) {
          later.bySeat += row.bySeat;
          later.byNetwork += row.byNetwork;
        } else {
          this.reads.set(key, row);
        }
      }
      for (const [key, row] of readers) this.readers.set(key, row);
      throw err;
    }
  }
}

function checkedRange({ from, to }: OrganisationReadsRequest): { from: Date; to: Date } {
  const errors: FieldError[] = [];
  const start = new Date(from);
  const end = new Date(to);
  if (typeof from !== 'string' || Number.isNaN(start.getTime())) errors.push({ field: 'from', message: 'must be an ISO 8601 time' });
  if (typeof to !== 'string' || Number.isNaN(end.getTime())) errors.push({ field: 'to', message: 'must be an ISO 8601 time' });
  rejectInvalid(errors);
  if (end <= start) rejectInvalid([{ field: 'to', message: 'must be after from' }]);
  if (end.getTime() - start.getTime() > MAX_RANGE_MS) rejectInvalid([{ field: 'to', message: `must be at most ${MAX_RANGE_MS / DAY_MS} days after from` }]);
  // Readers are counted by day: the range starts with its first whole day.
  return { from: new Date(Math.floor(start.getTime() / DAY_MS) * DAY_MS), to: end };
}

/** In key order, so two replicas' flushes adding to the same rows cannot deadlock. */
function writeReads(manager: EntityManager, rows: ReadonlyMap<string, ReadsRow>): Promise<void> {
  return insertRows(
    manager,
    'organisation_reads (publication_id, organisation_id, hour, seat_reads, network_reads)',
    inKeyOrder(rows).map((row) => [row.publicationId, row.organisationId, row.hour, row.bySeat, row.byNetwork]),
    `ON CONFLICT (publication_id, organisation_id, hour)
     DO UPDATE SET seat_reads = organisation_reads.seat_reads + EXCLUDED.seat_reads, network_reads = organisation_reads.network_reads + EXCLUDED.network_reads`,
  );
}

function writeReaders(manager: EntityManager, rows: ReadonlyMap<string, ReaderRow>): Promise<void> {
  return insertRows(
    manager,
    'organisation_readers (publication_id, organisation_id, day, reader_key)',
    [...rows.values()].map((row) => [row.publicationId, row.organisationId, row.day, row.readerKey]),
    'ON CONFLICT DO NOTHING',
  );
}
