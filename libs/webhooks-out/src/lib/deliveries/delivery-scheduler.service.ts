import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DueWorkScheduler } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { WebhookSecretBox } from '../secrets/webhook-secret-box.service';
import { ATTEMPTS_SCHEDULED, AttemptQueue, type ClaimedAttempt } from './attempt-queue.service';
import { deliveryHeaders } from './delivery-signature';
import { WebhookSender, type AttemptOutcome } from './webhook-sender.service';

/**
 * Makes due attempts: woken when a transaction that scheduled attempts commits, at the next due
 * time, and by polling; the schedule itself lives in PostgreSQL (AttemptQueue). On shutdown it
 * waits for the attempts in flight to settle.
 */
@Injectable()
export class DeliveryScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly scheduler: DueWorkScheduler<ClaimedAttempt>;

  constructor(
    private readonly dataSource: DataSource,
    clock: Clock,
    private readonly queue: AttemptQueue,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecretBox,
  ) {
    this.scheduler = new DueWorkScheduler(
      dataSource,
      clock,
      {
        claimDue: async (limit) => {
          await queue.settleAbandoned();
          return queue.claimDue(limit);
        },
        // A failure to record the outcome leaves the attempt claimed: once its lease runs out it is settled as interrupted.
        perform: (attempt) => this.make(attempt),
        nextDueAt: () => queue.nextDueAt(),
      },
      { name: 'webhook delivery attempts', addedFlag: ATTEMPTS_SCHEDULED, pollIntervalMs: 500, maxInFlight: 10 },
    );
  }

  onApplicationBootstrap(): void {
    this.scheduler.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.scheduler.stop();
  }

  private async make(attempt: ClaimedAttempt): Promise<void> {
    const outcome = await this.send(attempt);
    await this.dataSource.transaction((manager) => this.queue.settle(manager, attempt, outcome));
  }

  private send(attempt: ClaimedAttempt): Promise<AttemptOutcome> {
    let secret: string;
    try {
      secret = this.secrets.open(attempt.secretSealed);
    } catch {
      const error = 'the signing secret could not be decrypted: was WEBHOOK_SECRETS_KEY changed?';
      return Promise.resolve({ succeeded: false, responseCode: null, responseBody: null, durationMs: null, error });
    }
    const headers = deliveryHeaders({ deliveryId: attempt.deliveryId, event: attempt.event, body: attempt.body, secret, at: attempt.attemptedAt });
    return this.sender.send({ url: attempt.url, headers, body: attempt.body });
  }
}
