import { Logger } from '@nestjs/common';
import type { Clock } from '@gatehouse/platform';
import type { DataSource, EntitySubscriberInterface, TransactionCommitEvent } from 'typeorm';
import { apartFromRequests } from '../requests/request-handling';

/** Work kept in PostgreSQL and done when due: a retry schedule, a queue of messages. */
export interface DueWork<T> {
  /** Claims up to `limit` items due now for this process (row locks, SKIP LOCKED). */
  claimDue(limit: number): Promise<T[]>;
  /** Does one claimed item and records how it went; a throw is logged, the item is left to its lease. */
  perform(item: T): Promise<void>;
  /** When the earliest waiting item is due; null when none waits. */
  nextDueAt(): Promise<Date | null>;
}

export interface DueWorkOptions {
  /** What the log calls the work, e.g. "webhook delivery attempts". */
  name: string;
  /** Set on a transaction (queryRunner.data) that added work, so the scheduler looks as soon as it commits. */
  addedFlag: string;
  /** The safety net: work added by another replica, or whose wake-up was missed, is found this often. */
  pollIntervalMs: number;
  /** Items one process works on at once. */
  maxInFlight: number;
  /** How long stopping waits for the items in progress; unset: until they are done. */
  stopGraceMs?: number;
}

/**
 * Decides when to look for due work: when a transaction that added some commits, at the next due
 * time it knows of, and by polling. The schedule itself lives in PostgreSQL, so timers here only
 * decide when to look, and several replicas share the work through their claims.
 */
export class DueWorkScheduler<T> {
  private readonly logger: Logger;
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private round: Promise<void> | null = null;
  private roundRequested = false;
  private wakeTimer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly work: DueWork<T>,
    private readonly options: DueWorkOptions,
  ) {
    this.logger = new Logger(`DueWork(${options.name})`);
  }

  start(): void {
    this.running = true;
    this.dataSource.subscribers.push(this.wakeOnCommit());
    this.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.wakeTimer);
    await this.round;
    const done = Promise.all(this.inFlight);
    const grace = this.options.stopGraceMs;
    await (grace === undefined ? done : Promise.race([done, new Promise((resolve) => setTimeout(resolve, grace).unref())]));
  }

  /** Looks for due work now, or right after the look in progress. */
  wake(): void {
    if (!this.running) return;
    if (this.round) {
      this.roundRequested = true;
      return;
    }
    clearTimeout(this.wakeTimer);
    // A commit inside a request's handler wakes the scheduler; the work it then finds is nobody's
    // request, and must not inherit (and die with) that request's deadline.
    this.round = apartFromRequests(() => this.startDueWork()).finally(() => {
      this.round = null;
      if (this.roundRequested) {
        this.roundRequested = false;
        this.wake();
      }
    });
  }

  private async startDueWork(): Promise<void> {
    let nextDue: Date | null = null;
    try {
      const capacity = this.options.maxInFlight - this.inFlight.size;
      if (capacity > 0) for (const item of await this.work.claimDue(capacity)) this.track(item);
      nextDue = await this.work.nextDueAt();
      if (this.failing) this.logger.log(`Working on ${this.options.name} again`);
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.logger.error(`Looking for due ${this.options.name} failed, retrying: ${describe(err)}`);
      this.failing = true;
    }
    if (!this.running) return;
    const untilDue = nextDue ? Math.max(nextDue.getTime() - this.clock.now().getTime(), 0) : this.options.pollIntervalMs;
    this.wakeTimer = setTimeout(() => this.wake(), Math.min(untilDue, this.options.pollIntervalMs));
  }

  private track(item: T): void {
    const performing = this.work.perform(item).catch((err: unknown) => {
      this.logger.error(`Working on one of the ${this.options.name} failed; it is left to its lease: ${describe(err)}`);
    });
    this.inFlight.add(performing);
    void performing.finally(() => {
      this.inFlight.delete(performing);
      this.wake();
    });
  }

  private wakeOnCommit(): EntitySubscriberInterface {
    return {
      afterTransactionCommit: ({ queryRunner }: TransactionCommitEvent) => {
        if (!queryRunner.data[this.options.addedFlag]) return;
        delete queryRunner.data[this.options.addedFlag];
        this.wake();
      },
    };
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
