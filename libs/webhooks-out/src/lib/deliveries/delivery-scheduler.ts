import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '@gatehouse/platform';
import { DataSource, type EntitySubscriberInterface, type TransactionCommitEvent } from 'typeorm';
import { WebhookSecretBox } from '../secrets/webhook-secret-box';
import { ATTEMPTS_SCHEDULED, AttemptQueue, type ClaimedAttempt } from './attempt-queue';
import { deliveryHeaders } from './delivery-signature';
import { WebhookSender, type AttemptOutcome } from './webhook-sender';

/** The safety net: attempts scheduled by another replica, or whose wake-up was missed, are found this often. */
const POLL_INTERVAL_MS = 500;
/** Attempts one replica makes at once. */
const MAX_IN_FLIGHT = 10;

/**
 * Makes due attempts. Woken when a transaction that scheduled attempts commits, at the next due
 * time it knows of, and by polling; the schedule itself lives in PostgreSQL (AttemptQueue), so
 * timers here only decide when to look. On shutdown it waits for the attempts in flight to settle.
 */
@Injectable()
export class DeliveryScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliveryScheduler.name);
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private round: Promise<void> | null = null;
  private roundRequested = false;
  private wakeTimer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly queue: AttemptQueue,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecretBox,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.dataSource.subscribers.push(this.wakeOnCommit());
    this.wake();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    clearTimeout(this.wakeTimer);
    await this.round;
    await Promise.all(this.inFlight);
  }

  /** Looks for due attempts now, or right after the look in progress. */
  wake(): void {
    if (!this.running) return;
    if (this.round) {
      this.roundRequested = true;
      return;
    }
    clearTimeout(this.wakeTimer);
    this.round = this.makeDueAttempts().finally(() => {
      this.round = null;
      if (this.roundRequested) {
        this.roundRequested = false;
        this.wake();
      }
    });
  }

  private async makeDueAttempts(): Promise<void> {
    let nextDue: Date | null = null;
    try {
      await this.queue.settleAbandoned();
      const capacity = MAX_IN_FLIGHT - this.inFlight.size;
      if (capacity > 0) for (const attempt of await this.queue.claimDue(capacity)) this.track(this.make(attempt));
      nextDue = await this.queue.nextDueAt();
      if (this.failing) this.logger.log('Making webhook delivery attempts again');
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.logger.error(`Looking for due webhook delivery attempts failed, retrying: ${describe(err)}`);
      this.failing = true;
    }
    this.sleepUntil(nextDue);
  }

  private sleepUntil(due: Date | null): void {
    if (!this.running) return;
    const untilDue = due ? Math.max(due.getTime() - this.clock.now().getTime(), 0) : POLL_INTERVAL_MS;
    this.wakeTimer = setTimeout(() => this.wake(), Math.min(untilDue, POLL_INTERVAL_MS));
  }

  private track(attempt: Promise<void>): void {
    this.inFlight.add(attempt);
    void attempt.finally(() => {
      this.inFlight.delete(attempt);
      this.wake();
    });
  }

  private async make(attempt: ClaimedAttempt): Promise<void> {
    try {
      const outcome = await this.send(attempt);
      await this.dataSource.transaction((manager) => this.queue.settle(manager, attempt, outcome));
    } catch (err) {
      // Left claimed: once its lease runs out it is settled as interrupted, and the schedule goes on.
      this.logger.error(`Recording attempt ${attempt.number} of webhook delivery ${attempt.deliveryId} failed: ${describe(err)}`);
    }
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

  /** Wakes the scheduler when a transaction that scheduled attempts has committed, so they are made at once. */
  private wakeOnCommit(): EntitySubscriberInterface {
    return {
      afterTransactionCommit: ({ queryRunner }: TransactionCommitEvent) => {
        if (!queryRunner.data[ATTEMPTS_SCHEDULED]) return;
        delete queryRunner.data[ATTEMPTS_SCHEDULED];
        this.wake();
      },
    };
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
