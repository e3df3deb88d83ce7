import { Injectable } from '@nestjs/common';
import { Clock, webhookMetrics } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { WebhooksOutConfig } from '../webhooks-out.config';
import { DeliveryAttempt } from './delivery-attempt.entity';
import { Delivery } from './delivery.entity';
import { RetrySchedule } from './retry-schedule.service';
import type { AttemptOutcome } from './webhook-sender.service';

/** Set on a transaction that scheduled attempts, so the scheduler is woken once it commits. */
export const ATTEMPTS_SCHEDULED = 'webhooksOutAttemptsScheduled';

/** How long past the timeout a claimed attempt stays with its replica before it counts as interrupted. */
const LEASE_MARGIN_MS = 30_000;

/** An attempt this replica claimed, with what it needs to make it. */
export interface ClaimedAttempt {
  id: string;
  deliveryId: string;
  webhookId: string;
  number: number;
  seriesPosition: number;
  attemptedAt: Date;
  event: string;
  body: string;
  url: string;
  secretSealed: string;
}

const INTERRUPTED: AttemptOutcome = {
  succeeded: false,
  responseCode: null,
  responseBody: null,
  durationMs: null,
  error: 'interrupted: the sending process stopped before the attempt completed',
};

/**
 * The retry schedule, kept in PostgreSQL (decisions G3): attempt rows wait as `pending` until due;
 * a replica claims due ones with row locks (SKIP LOCKED), so no two replicas claim the same
 * attempt, and holds each for the timeout plus a margin. An attempt whose holder stopped without
 * settling it counts as made and failed: it is never sent twice, and the schedule goes on.
 */
@Injectable()
export class AttemptQueue {
  private readonly leaseMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly schedule: RetrySchedule,
    config: WebhooksOutConfig,
  ) {
    this.leaseMs = config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS;
  }

  /** The first attempt of a series, due now; it runs once the caller's transaction commits. */
  async startSeries(manager: EntityManager, delivery: Pick<Delivery, 'id' | 'webhookId'>, number: number): Promise<DeliveryAttempt> {
    const now = this.clock.now();
    return this.add(manager, { deliveryId: delivery.id, webhookId: delivery.webhookId, number, seriesPosition: 0, dueAt: now });
  }

  /** Claims up to `limit` due attempts for this replica. */
  claimDue(limit: number): Promise<ClaimedAttempt[]> {
    const now = this.clock.now();
    return this.dataSource.query(
      `WITH claimed AS (
         UPDATE delivery_attempts SET status = 'sending', attempted_at = $1, lease_until = $2
         WHERE id IN (
           SELECT id FROM delivery_attempts WHERE status = 'pending' AND due_at <= $1
           ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, delivery_id, webhook_id, number, series_position, attempted_at)
       SELECT c.id, c.delivery_id AS "deliveryId", c.webhook_id AS "webhookId", c.number, c.series_position AS "seriesPosition",
              c.attempted_at AS "attemptedAt", d.event, d.body, w.url, w.secret_sealed AS "secretSealed"
       FROM claimed c JOIN deliveries d ON d.id = c.delivery_id JOIN webhooks w ON w.id = c.webhook_id`,
      [now, new Date(now.getTime() + this.leaseMs), limit],
    );
  }

  /** Records how a claimed attempt went and schedules what follows. Nothing, when its registration was deleted meanwhile. */
  async settle(manager: EntityManager, attempt: Pick<DeliveryAttempt, 'id' | 'deliveryId' | 'webhookId' | 'number' | 'seriesPosition' | 'attemptedAt'>, outcome: AttemptOutcome): Promise<void> {
    const { affected } = await manager.update(
      DeliveryAttempt,
      { id: attempt.id, status: 'sending' },
      {
        status: outcome.succeeded ? 'succeeded' : 'failed',
        leaseUntil: null,
        responseCode: outcome.responseCode,
        responseBody: outcome.responseBody,
        durationMs: outcome.durationMs,
        error: outcome.error,
      },
    );
    if (!affected) return;
    if (outcome.succeeded) {
      webhookMetrics.attempts.inc({ outcome: 'delivered' });
      await manager.update(Delivery, { id: attempt.deliveryId }, { status: 'succeeded' });
      return;
    }
    const nextAt = this.schedule.nextAttemptAt(attempt.seriesPosition, attempt.attemptedAt ?? this.clock.now());
    webhookMetrics.attempts.inc({ outcome: nextAt ? 'failed' : 'gave_up' });
    if (!nextAt) {
      await manager.update(Delivery, { id: attempt.deliveryId }, { status: 'failed' });
      return;
    }
    await this.add(manager, {
      deliveryId: attempt.deliveryId,
      webhookId: attempt.webhookId,
      number: attempt.number + 1,
      seriesPosition: attempt.seriesPosition + 1,
      dueAt: nextAt,
    });
  }

  /** Settles, as interrupted, the attempts whose holder stopped before settling them. */
  settleAbandoned(): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      const abandoned = await manager
        .createQueryBuilder(DeliveryAttempt, 'attempt')
        .where("attempt.status = 'sending' AND attempt.lease_until < :now", { now: this.clock.now() })
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      for (const attempt of abandoned) await this.settle(manager, attempt, INTERRUPTED);
    });
  }

  /** When the earliest pending attempt is due; null when none is. */
  async nextDueAt(): Promise<Date | null> {
    const [row] = await this.dataSource.query<{ due: Date | null }[]>("SELECT min(due_at) AS due FROM delivery_attempts WHERE status = 'pending'");
    return row?.due ?? null;
  }

  private async add(manager: EntityManager, attempt: Pick<DeliveryAttempt, 'deliveryId' | 'webhookId' | 'number' | 'seriesPosition' | 'dueAt'>): Promise<DeliveryAttempt> {
    const row = manager.create(DeliveryAttempt, {
      ...attempt,
      id: randomUUID(),
      status: 'pending',
      leaseUntil: null,
      attemptedAt: null,
      responseCode: null,
      responseBody: null,
      durationMs: null,
      error: null,
      createdAt: this.clock.now(),
    });
    await manager.insert(DeliveryAttempt, row);
    if (manager.queryRunner) manager.queryRunner.data[ATTEMPTS_SCHEDULED] = true;
    return row;
  }
}
