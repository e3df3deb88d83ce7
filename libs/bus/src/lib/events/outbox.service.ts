import { Injectable } from '@nestjs/common';
import type { EventEnvelope, EventType } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * The channel on which a service's outbox announces new rows. NOTIFY channels are database-wide,
 * so the schema tells the services sharing one database apart.
 */
export function outboxChannel(schema: string): string {
  return `outbox_${schema}`;
}

export function outboxChannelOf(dataSource: DataSource): string {
  return outboxChannel((dataSource.options as { schema?: string }).schema ?? 'public');
}

const NOTICE_ADDED = 'gatehouse.outbox.noticeAdded';

/** Whether the transaction of this runner added a change notice, which its commit must publish before going on. */
export function addedNotice(runner: QueryRunner): boolean {
  return runner.data[NOTICE_ADDED] === true;
}

/**
 * Records domain events in the caller's transaction, so an event is published if and only if the
 * change it describes commits. The OutboxRelay publishes the rows afterwards: change notices as the
 * transaction commits (before the writer goes on), other events at once after it.
 */
@Injectable()
export class Outbox {
  async add<T>(manager: EntityManager, event: EventType<T>, data: T, publicationId: string | null): Promise<EventEnvelope<T>> {
    const [envelope] = await this.addAll(manager, event, [data], publicationId);
    return envelope;
  }

  /** Many events of one kind in one statement: a batch's worth (an import's), each its own envelope. */
  async addAll<T>(manager: EntityManager, event: EventType<T>, items: T[], publicationId: string | null): Promise<Array<EventEnvelope<T>>> {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) throw new Error(`${event.name} must be added in the transaction of the change it announces`);
    if (items.length === 0) return [];
    if (event.notice) runner.data[NOTICE_ADDED] = true;
    const occurredAt = new Date().toISOString();
    const envelopes = items.map((data): EventEnvelope<T> => ({ id: randomUUID(), name: event.name, publicationId, occurredAt, data }));
    await manager.query(
      `INSERT INTO outbox (id, name, publication_id, data, occurred_at)
       SELECT unnest($1::uuid[]), $2, $3::uuid, unnest($4::jsonb[]), $5`,
      [envelopes.map((e) => e.id), event.name, publicationId, envelopes.map((e) => JSON.stringify(e.data)), occurredAt],
    );
    // Delivered to listeners only when the transaction commits, and folded with others of the same transaction.
    await manager.query(`SELECT pg_notify($1, '')`, [outboxChannelOf(manager.dataSource)]);
    return envelopes;
  }
}
