import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { AccessRequests, type EdgeCheckRecord } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { edgeMetrics } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';

/** How often the records go to access: its visit counts and rollups trail the gateway's answers by about this much. */
const FLUSH_MS = 200;
const BATCH = 1_000;
/** While access does not take them: past this many the oldest go (a counter says how many). */
const MAX_BUFFERED = 50_000;
const NOTHING_TO_SEND = Promise.resolve();

/**
 * What a check the gateway answered must still record at access (the reader's visit, the link of
 * its visitor id to its customer, the rollup), sent in batches every FLUSH_MS and at shutdown. A
 * crash loses at most those milliseconds' records, as access's own buffers lose at most a second.
 * A batch whose answer did not come is sent again under its id: access records it once.
 */
@Injectable()
export class EdgeCheckRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(EdgeCheckRecorder.name);
  private buffered: EdgeCheckRecord[] = [];
  /** Batches sent whose answer did not come: sent again first, with the same id, so access records each once. */
  private unanswered: Array<{ batchId: string; checks: EdgeCheckRecord[] }> = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | null = null;

  constructor(private readonly bus: BusClient) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    // What arrived while the last batch was on its way.
    await this.flush();
  }

  record(check: EdgeCheckRecord): void {
    this.buffered.push(check);
    this.trim();
    if (this.buffered.length >= BATCH) void this.flush();
  }

  /** Sends what is buffered; one send at a time. */
  flush(): Promise<void> {
    if (this.sending === null && this.buffered.length === 0 && this.unanswered.length === 0) return NOTHING_TO_SEND;
    this.sending ??= this.send().finally(() => (this.sending = null));
    return this.sending;
  }

  private async send(): Promise<void> {
    while (this.unanswered.length > 0 || this.buffered.length > 0) {
      const batch = this.unanswered.shift() ?? { batchId: randomUUID(), checks: this.buffered.splice(0, BATCH) };
      try {
        await this.bus.request(AccessRequests.RecordEdgeChecks, batch);
      } catch (err) {
        this.unanswered.unshift(batch);
        this.trim();
        this.logger.warn(`Records of ${batch.checks.length} checks answered at the gateway not taken by access yet: ${String(err)}`);
        return;
      }
    }
  }

  /** Past MAX_BUFFERED records held, the oldest go: whole unanswered batches first, then buffered records. */
  private trim(): void {
    let over = this.unanswered.reduce((sum, batch) => sum + batch.checks.length, 0) + this.buffered.length - MAX_BUFFERED;
    if (over <= 0) return;
    let dropped = 0;
    while (over > 0 && this.unanswered.length > 0) {
      const batch = this.unanswered.shift() as { checks: EdgeCheckRecord[] };
      over -= batch.checks.length;
      dropped += batch.checks.length;
    }
    if (over > 0) {
      this.buffered.splice(0, over);
      dropped += over;
    }
    edgeMetrics.recordsDropped.inc(dropped);
  }
}
