import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { customerKey, readerOf, visitorKey, type Reader } from './reader';
import { VisitCounter } from './visit-counter';

/** How long a replica trusts its list of a customer's linked visitor ids (another replica may link one meanwhile). */
const LINKS_FRESH_MS = 60_000;
const MAX_CUSTOMERS = 100_000;

interface Links {
  visitorIds: string[];
  /** Visitor ids already presented with this customer: linked to it, or to another customer first. */
  presented: Set<string>;
  readAt: number;
}

/**
 * Who reads, across logging in: the first check that carries both a verified customer and the
 * site's visitor id links that visitor to the customer, for good, so what the visitor did before
 * logging in (meter views, passes, visits) counts as the customer's. A customer's links are kept
 * in memory, so only a visitor id not seen with that customer before costs a write.
 */
@Injectable()
export class ReadersService {
  private readonly links = new Map<string, Links>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly visits: VisitCounter,
  ) {}

  async identify(publicationId: string, customerId: string | null, visitorId: string | null, now: Date): Promise<Reader> {
    const reader = readerOf(publicationId, customerId, visitorId);
    if (!customerId) return reader;
    const id = `${publicationId} ${customerId}`;
    let links = this.links.get(id);
    if (!links || Date.now() - links.readAt >= LINKS_FRESH_MS || (visitorId !== null && !links.presented.has(visitorId))) {
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
      links = { visitorIds, presented: new Set([...visitorIds, ...(visitorId === null ? [] : [visitorId])]), readAt: Date.now() };
      this.links.delete(id);
      if (this.links.size >= MAX_CUSTOMERS) this.links.delete(this.links.keys().next().value as string);
      this.links.set(id, links);
    }
    return { ...reader, keys: [customerKey(customerId), ...links.visitorIds.map(visitorKey)] };
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
