import { Injectable } from '@nestjs/common';
import type { AccessPersonalData, ErasureStepResult, ReaderIdentifiers } from '@gatehouse/contracts';
import { forgetOutboxEventsNaming, outboxEventsNaming } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { customerKey, visitorKey } from '../readers/reader';
import { ReadersService } from '../readers/readers.service';
import { VisitCounter } from '../readers/visit-counter.service';
import { FLUSH_INTERVAL_MS } from '../shared/flush-schedule';

/** Every replica has written the visits it counted before a moment once this long has passed since. */
const FLUSHED_AFTER_MS = 2 * FLUSH_INTERVAL_MS;

/**
 * A reader's part of access: the visitor ids linked to them, visits, the metered pages they read,
 * the walls they passed (newsletter sign-ups, data-wall submissions), the days organisations let
 * them in (erased; organisations' stats count them) and the events recorded about them, under their
 * customer key and every linked visitor's.
 */
@Injectable()
export class AccessPersonalDataService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly readers: ReadersService,
    private readonly visits: VisitCounter,
  ) {}

  async export(reader: ReaderIdentifiers): Promise<AccessPersonalData> {
    const manager = this.dataSource.manager;
    const { publicationId } = reader;
    const links = await this.linksOf(manager, reader);
    const keys = readerKeysOf(reader, links);
    const [visits, meterViews, passes, organisationDays, events] = await Promise.all([
      manager.query('SELECT reader_key, count, last_visit_at FROM visits WHERE publication_id = $1 AND reader_key = ANY($2::text[]) ORDER BY last_visit_at', [publicationId, keys]),
      manager.query('SELECT paywall_id, page, viewed_at FROM meter_views WHERE publication_id = $1 AND reader_key = ANY($2::text[]) ORDER BY viewed_at', [publicationId, keys]),
      manager.query('SELECT kind, fields, passed_at FROM visitor_passes WHERE publication_id = $1 AND reader_key = ANY($2::text[]) ORDER BY passed_at', [publicationId, keys]),
      manager.query('SELECT DISTINCT organisation_id, day FROM organisation_readers WHERE publication_id = $1 AND reader_key = ANY($2::text[]) ORDER BY day, organisation_id', [
        publicationId,
        keys,
      ]),
      outboxEventsNaming(manager, publicationId, needlesOf(reader, links)),
    ]);
    return {
      visitorIds: links.map((link) => ({ visitorId: link.visitor_id, linkedAt: link.linked_at.toISOString() })),
      visits: visits.map((row: { reader_key: string; count: string; last_visit_at: Date }) => ({ readerKey: row.reader_key, count: Number(row.count), lastVisitAt: row.last_visit_at.toISOString() })),
      meterViews: meterViews.map((row: { paywall_id: string; page: string; viewed_at: Date }) => ({ paywallId: row.paywall_id, page: row.page, viewedAt: row.viewed_at.toISOString() })),
      passes: passes.map((row: { kind: 'newsletter' | 'data'; fields: string[]; passed_at: Date }) => ({ kind: row.kind, fields: row.fields, passedAt: row.passed_at.toISOString() })),
      organisationDays: organisationDays.map((row: { organisation_id: string; day: Date }) => ({ organisationId: row.organisation_id, day: row.day.toISOString() })),
      events,
    };
  }

  /**
   * Deletes every record under the reader's keys, their links and the events naming them. Not done
   * while such an event waits to be published, nor before every replica has written the visits it
   * counted before the erasure (they are deleted when asked again).
   */
  async erase(reader: ReaderIdentifiers & { requestedAt: string }): Promise<ErasureStepResult> {
    const { publicationId, customerId } = reader;
    // The links go last: the visitor ids they name are needed again while visits may still come in.
    const settled = this.clock.now().getTime() - Date.parse(reader.requestedAt) >= FLUSHED_AFTER_MS;
    const links = await this.linksOf(this.dataSource.manager, reader);
    const keys = readerKeysOf(reader, links);
    await this.visits.erase(publicationId, keys);
    const waiting = await this.dataSource.transaction(async (manager) => {
      await manager.query('DELETE FROM meter_views WHERE publication_id = $1 AND reader_key = ANY($2::text[])', [publicationId, keys]);
      await manager.query('DELETE FROM visitor_passes WHERE publication_id = $1 AND reader_key = ANY($2::text[])', [publicationId, keys]);
      // The days an organisation let them in: its reads stay counted, naming no reader.
      await manager.query('DELETE FROM organisation_readers WHERE publication_id = $1 AND reader_key = ANY($2::text[])', [publicationId, keys]);
      // Their share links (and first name) go; the opens stay counted, naming no link.
      await manager.query('DELETE FROM share_links WHERE publication_id = $1 AND customer_id = $2', [publicationId, customerId]);
      const unpublished = await forgetOutboxEventsNaming(manager, publicationId, needlesOf(reader, links));
      if (settled && unpublished === 0) await manager.query('DELETE FROM visitor_links WHERE publication_id = $1 AND customer_id = $2', [publicationId, customerId]);
      return unpublished;
    });
    this.readers.forgetCustomer(publicationId, customerId);
    return { done: waiting === 0 && settled };
  }

  private linksOf(manager: EntityManager, reader: ReaderIdentifiers): Promise<Array<{ visitor_id: string; linked_at: Date }>> {
    return manager.query('SELECT visitor_id, linked_at FROM visitor_links WHERE publication_id = $1 AND customer_id = $2 ORDER BY linked_at', [
      reader.publicationId,
      reader.customerId,
    ]);
  }
}

function readerKeysOf(reader: ReaderIdentifiers, links: Array<{ visitor_id: string }>): string[] {
  return [customerKey(reader.customerId), ...links.map((link) => visitorKey(link.visitor_id))];
}

/** What names the reader in an event: their id, their email, a linked visitor id. */
function needlesOf(reader: ReaderIdentifiers, links: Array<{ visitor_id: string }>): string[] {
  return [reader.customerId, reader.email, ...links.map((link) => link.visitor_id)];
}
