/** Counts kept in memory reach the database at most this long after they were counted. */
export const FLUSH_INTERVAL_MS = 1_000;

/**
 * When counters kept in memory are written: every FLUSH_INTERVAL_MS, and once more when the service
 * stops (from its Nest shutdown hook). Flushes, and whatever else must not overlap one (reading
 * what a flush is writing), take turns.
 */
export class FlushSchedule {
  private turn: Promise<unknown> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly write: () => Promise<void>,
    private readonly onFailure: (err: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Writes everything counted so far; rejects when the write failed (the counts are kept for the next one). */
  flush(): Promise<void> {
    return this.inTurn(this.write);
  }

  inTurn<T>(step: () => Promise<T>): Promise<T> {
    const done = this.turn.then(step);
    this.turn = done.catch(this.onFailure);
    return done;
  }
}
