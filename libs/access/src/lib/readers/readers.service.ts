import { Injectable } from '@nestjs/common';
import { ReadModels, type ReadModel } from '@gatehouse/bus';
import { DataSource } from 'typeorm';
import { customerKey, readerOf, visitorKey, type Reader } from './reader';
import { VisitCounter } from './visit-counter.service';

interface Links {
  visitorIds: string[];
  /** Visitor ids already presented with this customer: linked to it, or to another customer first. */
  presented: Set<string>;
}

/**
 * Who reads, across logging in: the first check that carries both a verified customer and the
 * site's visitor id links that visitor to the customer, for good, so what the visitor did before
 * logging in (meter views, passes, visits) counts as the customer's. A customer's links are kept
 * in memory, so only a visitor id not seen with that customer before costs a write.
 */
@Injectable()
export class ReadersService {
  private readonly links: ReadModel<string, Links>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly visits: VisitCounter,
    readModels: ReadModels,
  ) {
    // Trusted for a minute: another replica may link a visitor id to the customer meanwhile.
    this.links = readModels.define({ name: 'visitor-links', max: 100_000, freshMs: 60_000 });
  }

  async identify(publicationId: string, customerId: string | null, visitorId: string | null, now: Date): Promise<Reader> {
    const reader = readerOf(publicationId, customerId, visitorId);
    if (!customerId) return reader;
    const id = `${publicationId} ${customerId}`;
    let links = this.links.peek(id);
    if (!links || (visitorId !== null && !links.presented.has(visitorId))) {
      const linked: Array<{ visitor_id: string }> = await this.dataSource.query(
        `WITH linked AS (
           INSERT INTO visitor_links (publication_id, visitor_id, customer_id, linked_at)
           SELECT $1, $3, $2, $4 WHERE $3::text IS NOT NULL
           ON CONFLICT (publication_id, visitor_id) DO NOTHING
           RETURNING visitor_id
         )
         SELECT visitor_id FROM visitor_links WHERE publication_id = $1 AND customer_id = $2
         UNION SELECT visitor_id FROM linked`,
        [publicationId, customerId, visitorId, now],
      );
      const visitorIds = linked.map((row) => row.visitor_id);
      links = { visitorIds, presented: new Set([...visitorIds, ...(visitorId === null ? [] : [visitorId])]) };
      this.links.set(id, links);
    }
    return { ...reader, keys: [customerKey(customerId), ...links.visitorIds.map(visitorKey)] };
  }

  /** Drops what this replica remembers of the customer's links (an erasure deleted them). */
  forgetCustomer(publicationId: string, customerId: string): void {
    this.links.forget(`${publicationId} ${customerId}`);
  }

  /** Counts this check as a visit (in memory, written within a second). */
  recordVisit(reader: Reader, now: Date): void {
    this.visits.add(reader, now);
  }

  /** The reader's visits so far, this check included; undefined without identity. */
  visitsOf(reader: Reader): Promise<number | undefined> {
    return this.visits.total(reader);
  }
}
