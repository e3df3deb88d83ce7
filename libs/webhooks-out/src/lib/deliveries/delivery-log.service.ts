import { Injectable } from '@nestjs/common';
import type { DeliveryAttemptView } from '@gatehouse/contracts';
import { DataSource } from 'typeorm';
import type { DeliveryAttempt } from './delivery-attempt.entity';

/** How many attempts each registration shows (decisions G1). */
const RECENT_ATTEMPTS = 20;

interface LoggedAttempt extends DeliveryAttempt {
  event: string;
}

/** The delivery log the dashboard shows: each attempt with its response. */
@Injectable()
export class DeliveryLog {
  constructor(private readonly dataSource: DataSource) {}

  /** The last 20 attempts of each registration, newest first. */
  async recent(webhookIds: string[]): Promise<Map<string, DeliveryAttemptView[]>> {
    const log = new Map<string, DeliveryAttemptView[]>(webhookIds.map((id) => [id, []]));
    if (webhookIds.length === 0) return log;
    const rows: LoggedAttempt[] = await this.dataSource.query(
      `SELECT a.id, a.delivery_id AS "deliveryId", a.webhook_id AS "webhookId", a.number, a.status, a.due_at AS "dueAt",
              a.attempted_at AS "attemptedAt", a.response_code AS "responseCode", a.response_body AS "responseBody",
              a.duration_ms AS "durationMs", a.error, a.created_at AS "createdAt", d.event
       FROM unnest($1::uuid[]) AS w(id)
       CROSS JOIN LATERAL (
         SELECT * FROM delivery_attempts WHERE webhook_id = w.id ORDER BY created_at DESC, number DESC LIMIT ${RECENT_ATTEMPTS}
       ) a
       JOIN deliveries d ON d.id = a.delivery_id
       ORDER BY a.created_at DESC, a.number DESC`,
      [webhookIds],
    );
    for (const row of rows) log.get(row.webhookId)?.push(attemptView(row, row.event));
    return log;
  }
}

export function attemptView(attempt: DeliveryAttempt, event: string): DeliveryAttemptView {
  return {
    id: attempt.deliveryId,
    event,
    attempt: attempt.number,
    status: attempt.status === 'sending' ? 'pending' : attempt.status,
    responseCode: attempt.responseCode,
    responseBody: attempt.responseBody,
    durationMs: attempt.durationMs,
    error: attempt.error,
    createdAt: attempt.createdAt.toISOString(),
    dueAt: attempt.dueAt.toISOString(),
    attemptedAt: attempt.attemptedAt?.toISOString() ?? null,
  };
}
