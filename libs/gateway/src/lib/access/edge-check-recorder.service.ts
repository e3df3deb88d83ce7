import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { AccessRequests, type EdgeCheckRecord } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { edgeMetrics } from '@gatehouse/platform';

/** How often the records go to access: its visit counts and rollups trail the gateway's answers by about this much. */
const FLUSH_MS = 200;
const BATCH = 1_000;
/** While access does not take them: past this many the oldest go (a counter says how many). */
const MAX_BUFFERED = 50_000;

/**
 * What a check the gateway answered must still record at access (the reader's visit, the link of
 * its visitor id to its customer, the rollup), sent in batches every FLUSH_MS and at shutdown. A
 * crash loses at most those milliseconds' records, as access's own buffers lose at most a second.
 */
@Injectable()
export class EdgeCheckRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(EdgeCheckRecorder.name);
  private buffered: EdgeCheckRecord[] = [];
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
    this.sending ??= this.send().finally(() => (this.sending = null));
    return this.sending;
  }

  private async send(): Promise<void> {
    while (this.buffered.length > 0) {
      const batch = this.buffered.splice(0, BATCH);
      try {
        await this.bus.request(AccessRequests.RecordEdgeChecks, { checks: batch });
      } catch (err) {
        this.buffered = [...batch, ...this.buffered];
        this.trim();
        this.logger.warn(`Records of ${batch.length} checks answered at the gateway not taken by access yet: ${String(err)}`);
        return;
      }
    }
  }

  private trim(): void {
    const over = this.buffered.length - MAX_BUFFERED;
    if (over <= 0) return;
    this.buffered.splice(0, over);
    edgeMetrics.recordsDropped.inc(over);
  }
}
