import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { customerKey, readerOf, visitorKey, type Reader } from './reader';

/**
 * Who reads, across logging in: the first check that carries both a verified customer and the
 * site's visitor id links that visitor to the customer, for good, so what the visitor did before
 * logging in (meter views, passes, visits) counts as the customer's.
 */
@Injectable()
export class ReadersService {
  constructor(private readonly dataSource: DataSource) {}

  async identify(publicationId: string, customerId: string | null, visitorId: string | null, now: Date): Promise<Reader> {
    const reader = readerOf(publicationId, customerId, visitorId);
    if (!customerId) return reader;
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
    return { ...reader, keys: [customerKey(customerId), ...linked.map((row) => visitorKey(row.visitor_id))] };
  }

  /** Counts this check as a visit and answers the reader's visits so far, this one included; undefined without identity. */
  async recordVisit(reader: Reader, now: Date): Promise<number | undefined> {
    if (!reader.key) return undefined;
    const [{ visits }]: Array<{ visits: string }> = await this.dataSource.query(
      `WITH counted AS (
         INSERT INTO visits (publication_id, reader_key, count, last_visit_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (publication_id, reader_key) DO UPDATE SET count = visits.count + 1, last_visit_at = EXCLUDED.last_visit_at
         RETURNING count
       )
       SELECT (SELECT count FROM counted) + COALESCE((SELECT sum(count) FROM visits WHERE publication_id = $1 AND reader_key = ANY($4::text[])), 0) AS visits`,
      [reader.publicationId, reader.key, now, reader.keys.filter((key) => key !== reader.key)],
    );
    return Number(visits);
  }
}
