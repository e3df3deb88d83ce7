import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Reader } from '../readers/reader';

export type PassKind = 'newsletter' | 'data';

/**
 * What a reader did to pass newsletter and data walls (decisions E5). For a data submission only
 * the names of the fields it filled in are kept, never their values: those go to the publisher in
 * the `data.submit` event.
 */
@Injectable()
export class PassesService {
  constructor(private readonly dataSource: DataSource) {}

  async record(manager: EntityManager, reader: Reader, kind: PassKind, filledFields: string[], now: Date): Promise<void> {
    if (!reader.key) return;
    await manager.query(
      `INSERT INTO visitor_passes (publication_id, reader_key, kind, fields, passed_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (publication_id, reader_key, kind, fields) DO NOTHING`,
      [reader.publicationId, reader.key, kind, [...new Set(filledFields)].sort(), now],
    );
  }

  /** Newsletter: any accepted subscription. Data: a submission that filled in every required field. */
  async hasPassed(reader: Reader, kind: PassKind, requiredFields: string[] = []): Promise<boolean> {
    if (reader.keys.length === 0) return false;
    const found: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM visitor_passes
        WHERE publication_id = $1 AND reader_key = ANY($2::text[]) AND kind = $3 AND fields @> $4::text[]
        LIMIT 1`,
      [reader.publicationId, reader.keys, kind, requiredFields],
    );
    return found.length > 0;
  }
}

/** The fields of submitted data that carry a value: not absent, null, false or blank. */
export function filledFields(data: Record<string, unknown>): string[] {
  return Object.entries(data)
    .filter(([, value]) => value !== null && value !== undefined && value !== false && !(typeof value === 'string' && value.trim() === ''))
    .map(([name]) => name);
}
