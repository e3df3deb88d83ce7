import { Injectable } from '@nestjs/common';
import type { ErasureStepResult, ReaderIdentifiers, WebhooksOutPersonalData } from '@gatehouse/contracts';
import { EVENT_RETENTION_MS } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';

/** The durable consumer that turns events into deliveries (EventFanOut). */
const FAN_OUT_CONSUMER = 'webhooks-out';

/** Deliveries of the publication's webhooks whose body names any needle (the reader's id or email). */
const DELIVERIES_NAMING = `webhook_id IN (SELECT id FROM webhooks WHERE publication_id = $1)
  AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS needle WHERE strpos(lower(body), lower(needle)) > 0)`;

/**
 * What was sent about a reader to the publisher's endpoints. Erasure blanks the bodies of those
 * deliveries (and any answer that echoed them) once they are no longer being attempted, the
 * `customer.deleted` delivery included: the publisher got it, the log keeps that it was sent.
 */
@Injectable()
export class WebhooksOutPersonalDataService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async export(reader: ReaderIdentifiers): Promise<WebhooksOutPersonalData> {
    const rows: Array<{ id: string; webhook_id: string; event: string; status: string; created_at: Date; body: string }> = await this.dataSource.query(
      `SELECT id, webhook_id, event, status, created_at, body FROM deliveries WHERE ${DELIVERIES_NAMING} ORDER BY created_at, id`,
      [reader.publicationId, needlesOf(reader)],
    );
    return {
      deliveries: rows.map((row) => ({ id: row.id, webhookId: row.webhook_id, event: row.event, status: row.status, createdAt: row.created_at.toISOString(), body: JSON.parse(row.body) })),
    };
  }

  /** Not done until `customer.deleted` has been fanned out and no delivery naming the reader is still pending. */
  async erase(request: ReaderIdentifiers & { deletedEventId: string; requestedAt: string }): Promise<ErasureStepResult> {
    const { publicationId, deletedEventId } = request;
    // Past the stream's age the event can no longer arrive (and its handled id may be pruned).
    const beyondStream = this.clock.now().getTime() - Date.parse(request.requestedAt) > EVENT_RETENTION_MS;
    const needles = needlesOf(request);
    return this.dataSource.transaction(async (manager) => {
      const fannedOut: unknown[] = await manager.query('SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2', [FAN_OUT_CONSUMER, deletedEventId]);
      const settled: Array<{ id: string; event: string }> = await manager.query(
        `SELECT id, event FROM deliveries WHERE status <> 'pending' AND ${DELIVERIES_NAMING}`,
        [publicationId, needles],
      );
      for (const delivery of settled) {
        const body = JSON.stringify({ event: delivery.event, data: { redacted: 'the customer this event named was erased' } });
        await manager.query('UPDATE deliveries SET body = $2 WHERE id = $1', [delivery.id, body]);
        await manager.query(
          `UPDATE delivery_attempts SET response_body = NULL, error = NULL WHERE delivery_id = $1 AND status <> 'pending' AND status <> 'sending'`,
          [delivery.id],
        );
      }
      // An endpoint's answer may echo what it was sent, to any delivery.
      await manager.query(
        `UPDATE delivery_attempts SET response_body = NULL WHERE webhook_id IN (SELECT id FROM webhooks WHERE publication_id = $1)
           AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS needle WHERE strpos(lower(response_body), lower(needle)) > 0 OR strpos(lower(error), lower(needle)) > 0)`,
        [publicationId, needles],
      );
      const [{ pending }]: Array<{ pending: number }> = await manager.query(`SELECT count(*)::int AS pending FROM deliveries WHERE ${DELIVERIES_NAMING}`, [
        publicationId,
        needles,
      ]);
      return { done: (fannedOut.length === 1 || beyondStream) && pending === 0 };
    });
  }
}

function needlesOf(reader: ReaderIdentifiers): string[] {
  return [reader.customerId, reader.email];
}
