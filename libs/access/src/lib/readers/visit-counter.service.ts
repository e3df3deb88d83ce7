import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ReadModels, type ReadModel } from '@gatehouse/bus';
import { DataSource } from 'typeorm';
import { FlushSchedule } from '../shared/flush-schedule';
import type { Reader } from './reader';

interface Pending {
  publicationId: string;
  readerKey: string;
  count: number;
  lastVisitAt: Date;
}

interface Known {
  /** The count in the database when read, plus what this replica flushed since. */
  stored: number;
}

/**
 * Visits (the `visit_count` segment attribute) counted in memory and written in one statement at
 * most a second later, and at shutdown. A reader's count is read once and then kept up to date
 * here; reads and flushes take turns, so a count is never read half-flushed. A crash loses at most
 * the last second of visits.
 */
@Injectable()
export class VisitCounter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(VisitCounter.name);
  private readonly known: ReadModel<string, Known>;
  private unflushed = new Map<string, Pending>();
  /** The visits a flush is writing: counted in neither `unflushed` nor `known` until its statement answers. */
  private writing = new Map<string, Pending>();
  private wanted = new Map<string, Array<() => void>>();
  private readsQueued = false;
  private readonly schedule = new FlushSchedule(
    () => this.write(),
    (err) => this.logger.warn(`Visit counts not written yet: ${String(err)}`),
  );

  constructor(
    private readonly dataSource: DataSource,
    readModels: ReadModels,
  ) {
    // Trusted for a minute before reading again: other replicas count too.
    this.known = readModels.define({ name: 'visit-counts', max: 200_000, freshMs: 60_000 });
  }

  onModuleInit(): void {
    this.schedule.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.schedule.stop();
  }

  /** Counts a visit of the reader (this check). */
  add(reader: Reader, now: Date): void {
    if (!reader.key) return;
    const own = idOf(reader.publicationId, reader.key);
    const pending = this.unflushed.get(own);
    if (pending) {
      pending.count += 1;
      pending.lastVisitAt = now;
    } else {
      this.unflushed.set(own, { publicationId: reader.publicationId, readerKey: reader.key, count: 1, lastVisitAt: now });
    }
  }

  /** The reader's visits so far (linked visitor ids too), read from the database only when this replica does not know them yet. */
  async total(reader: Reader): Promise<number | undefined> {
    if (!reader.key) return undefined;
    const ids = reader.keys.map((key) => idOf(reader.publicationId, key));
    const stale = ids.filter((id) => this.known.peek(id) === undefined);
    if (stale.length > 0) await Promise.all(stale.map((id) => this.read(id)));
    return ids.reduce((sum, id) => sum + (this.known.peek(id)?.stored ?? 0) + (this.writing.get(id)?.count ?? 0) + (this.unflushed.get(id)?.count ?? 0), 0);
  }

  /**
   * Deletes the readers' visits, in turn with the flushes so that none counted here before comes
   * back: an erasure. Visits another replica holds in memory reach the table within a second.
   */
  erase(publicationId: string, readerKeys: string[]): Promise<void> {
    return this.schedule.inTurn(async () => {
      for (const key of readerKeys) {
        this.unflushed.delete(idOf(publicationId, key));
        this.known.forget(idOf(publicationId, key));
      }
      await this.dataSource.query('DELETE FROM visits WHERE publication_id = $1 AND reader_key = ANY($2::text[])', [publicationId, readerKeys]);
    });
  }

  /** Reads of readers not known yet are grouped into one query, between flushes. */
  private read(id: string): Promise<void> {
    return new Promise((resolve) => {
      this.wanted.set(id, [...(this.wanted.get(id) ?? []), resolve]);
      if (this.readsQueued) return;
      this.readsQueued = true;
      void this.schedule.inTurn(() => this.readWanted());
    });
  }

  private async readWanted(): Promise<void> {
    this.readsQueued = false;
    const wanted = this.wanted;
    this.wanted = new Map();
    const byPublication = new Map<string, string[]>();
    for (const id of wanted.keys()) {
      const [publicationId, readerKey] = splitId(id);
      byPublication.set(publicationId, [...(byPublication.get(publicationId) ?? []), readerKey]);
    }
    const counts = new Map<string, number>();
    try {
      for (const [publicationId, readerKeys] of byPublication) {
        const rows: Array<{ reader_key: string; count: number }> = await this.dataSource.query(
          'SELECT reader_key, count FROM visits WHERE publication_id = $1 AND reader_key = ANY($2::text[])',
          [publicationId, readerKeys],
        );
        for (const row of rows) counts.set(idOf(publicationId, row.reader_key), Number(row.count));
      }
      for (const id of wanted.keys()) this.known.set(id, { stored: counts.get(id) ?? 0 });
    } catch (err) {
      // The check goes on with what this replica knows; the next one reads again.
      this.logger.warn(`Visit counts not read: ${String(err)}`);
    }
    for (const resolvers of wanted.values()) resolvers.forEach((resolve) => resolve());
  }

  private async write(): Promise<void> {
    if (this.unflushed.size === 0) return;
    this.writing = this.unflushed;
    this.unflushed = new Map();
    const batch = [...this.writing.values()].sort((a, b) => (a.publicationId + a.readerKey < b.publicationId + b.readerKey ? -1 : 1));
    try {
      await this.dataSource.query(
        `INSERT INTO visits (publication_id, reader_key, count, last_visit_at)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::timestamptz[])
         ON CONFLICT (publication_id, reader_key) DO UPDATE SET count = visits.count + EXCLUDED.count, last_visit_at = EXCLUDED.last_visit_at`,
        [batch.map((v) => v.publicationId), batch.map((v) => v.readerKey), batch.map((v) => v.count), batch.map((v) => v.lastVisitAt)],
      );
    } catch (err) {
      for (const visit of batch) {
        const id = idOf(visit.publicationId, visit.readerKey);
        const later = this.unflushed.get(id);
        this.unflushed.set(id, later ? { ...later, count: later.count + visit.count } : visit);
      }
      throw err;
    } finally {
      this.writing = new Map();
    }
    // In the same turn as `writing` emptied: a total read meanwhile counts each visit once.
    for (const visit of batch) {
      const known = this.known.peek(idOf(visit.publicationId, visit.readerKey));
      if (known) known.stored += visit.count;
    }
  }
}

const idOf = (publicationId: string, readerKey: string) => `${publicationId} ${readerKey}`;
const splitId = (id: string): [string, string] => {
  const at = id.indexOf(' ');
  return [id.slice(0, at), id.slice(at + 1)];
};
