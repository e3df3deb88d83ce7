import type { PersonalDataEvent } from '@gatehouse/contracts';
import type { EntityManager } from 'typeorm';

/** Rows of a service's outbox whose data names any of the needles (a reader's id, email, visitor ids), in any letter case. */
const NAMING = `publication_id = $1 AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS needle WHERE strpos(lower(data::text), lower(needle)) > 0)`;

/** The events this service recorded about a reader, oldest first: their part of a personal-data export. */
export async function outboxEventsNaming(manager: EntityManager, publicationId: string, needles: string[]): Promise<PersonalDataEvent[]> {
  const rows: Array<{ id: string; name: string; occurred_at: Date; data: unknown }> = await manager.query(
    `SELECT id, name, occurred_at, data FROM outbox WHERE ${NAMING} ORDER BY occurred_at, id`,
    [publicationId, needles],
  );
  return rows.map((row) => ({ id: row.id, name: row.name, occurredAt: row.occurred_at.toISOString(), data: row.data }));
}

/**
 * Deletes the published events that name a reader being erased (retention would only reach them
 * later), and answers how many naming them still wait to be published: those are kept until they
 * are, and the erasure step asks again.
 */
export async function forgetOutboxEventsNaming(manager: EntityManager, publicationId: string, needles: string[]): Promise<number> {
  await manager.query(`DELETE FROM outbox WHERE published_at IS NOT NULL AND ${NAMING}`, [publicationId, needles]);
  const [{ waiting }]: Array<{ waiting: number }> = await manager.query(`SELECT count(*)::int AS waiting FROM outbox WHERE ${NAMING}`, [publicationId, needles]);
  return waiting;
}
