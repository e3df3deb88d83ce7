import type { TrackEvent } from '@gatehouse/contracts';
import { backoffDelay, type BackoffOptions } from './backoff';
import { GatehouseError, isUnavailable } from './errors';

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface EventQueueOptions {
  /** Posts one batch (`exiting`: as the page closes); rejects with a `GatehouseError`. */
  send(events: TrackEvent[], keepalive: boolean, exiting: boolean): Promise<unknown>;
  timers: Timers;
  /** Where dropped events are reported (the console unless a test brings its own). */
  warn(message: string, error?: unknown): void;
  maxBatch?: number;
  flushIntervalMs?: number;
  /** Events kept while the service is unreachable; the oldest go first beyond it. */
  maxQueued?: number;
  backoff?: BackoffOptions;
}

/** The API takes at most this many events per request (decisions E8). */
export const MAX_BATCH = 50;
export const FLUSH_INTERVAL_MS = 3000;
const MAX_QUEUED = 500;
const KEEPALIVE_BODY_BYTES = 60_000;
/** The API refuses JSON bodies over 100 KiB (decisions B2): a batch stays under it. */
const BATCH_BODY_BYTES = 90_000;

/**
 * Track events on their way to `POST /api/v1/events`: batched (at most 50, sent every few
 * seconds or as soon as a batch is full), retried with backoff when the service cannot be reached
 * or answers 5xx or 429, dropped with a warning on any other 4xx. Nothing here ever throws into
 * the page, and no call waits for the network.
 */
export class EventQueue {
  private queue: TrackEvent[] = [];
  private timer: unknown = null;
  private sending = false;
  private failures = 0;
  private readonly maxBatch: number;
  private readonly flushIntervalMs: number;
  private readonly maxQueued: number;
  private readonly backoff: BackoffOptions;

  constructor(private readonly options: EventQueueOptions) {
    this.maxBatch = options.maxBatch ?? MAX_BATCH;
    this.flushIntervalMs = options.flushIntervalMs ?? FLUSH_INTERVAL_MS;
    this.maxQueued = options.maxQueued ?? MAX_QUEUED;
    this.backoff = options.backoff ?? { baseMs: 1000, maxMs: 60_000 };
  }

  get size(): number {
    return this.queue.length;
  }

  push(event: TrackEvent): void {
    this.queue.push(event);
    this.trim();
    if (this.queue.length >= this.maxBatch && this.failures === 0) void this.flush();
    else this.schedule(this.flushIntervalMs);
  }

  /** Sends what is queued, batch after batch; on a retryable failure waits with backoff. */
  async flush(): Promise<void> {
    if (this.sending) return;
    this.cancelTimer();
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        // Out of the queue while in flight, so that `flushOnExit` does not send it twice.
        const batch = this.takeBatch();
        try {
          await this.options.send(batch, fitsKeepalive(batch), false);
          this.failures = 0;
        } catch (error) {
          if (isUnavailable(error) || (error instanceof GatehouseError && error.code === 'rate_limited')) {
            this.queue.unshift(...batch);
            this.trim();
            this.failures += 1;
            const retryAfter = error instanceof GatehouseError ? error.retryAfterMs ?? 0 : 0;
            this.schedule(Math.max(retryAfter, backoffDelay(this.failures, this.backoff)));
            return;
          }
          this.options.warn(`Gatehouse: ${batch.length} event(s) refused and dropped.`, error);
        }
      }
    } finally {
      this.sending = false;
    }
  }

  /**
   * The page is going away: everything queued leaves now, in requests that outlive the page
   * (`keepalive`), without waiting for an answer or a backoff.
   */
  flushOnExit(): void {
    this.cancelTimer();
    while (this.queue.length > 0) {
      const batch = this.takeBatch();
      this.options.send(batch, true, true).catch((error) => this.options.warn(`Gatehouse: ${batch.length} event(s) lost as the page closed.`, error));
    }
  }

  /** The next batch: at most `maxBatch` events and, but for a single event, under the API's body limit. */
  private takeBatch(): TrackEvent[] {
    let count = 0;
    let bytes = 0;
    while (count < Math.min(this.maxBatch, this.queue.length)) {
      const size = JSON.stringify(this.queue[count]).length + 1;
      if (count > 0 && bytes + size > BATCH_BODY_BYTES) break;
      bytes += size;
      count += 1;
    }
    return this.queue.splice(0, count);
  }

  private trim(): void {
    if (this.queue.length <= this.maxQueued) return;
    this.queue.splice(0, this.queue.length - this.maxQueued);
    this.options.warn(`Gatehouse: more than ${this.maxQueued} events waiting; the oldest were dropped.`);
  }

  private schedule(ms: number): void {
    if (this.timer !== null) return;
    this.timer = this.options.timers.setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer === null) return;
    this.options.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Browsers cap the bodies of keepalive requests in flight at 64 KiB. */
function fitsKeepalive(batch: TrackEvent[]): boolean {
  return JSON.stringify(batch).length < KEEPALIVE_BODY_BYTES;
}
