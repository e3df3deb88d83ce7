import { Injectable } from '@nestjs/common';
import { parseSecondsList } from '@gatehouse/platform';
import { WebhooksOutConfig } from '../webhooks-out.config';

/**
 * When the attempts of a series are made (decisions G3): the first at once, the retries at the
 * configured offsets after it (10 s and 60 s), then none. Each retry waits for the offset's
 * difference after the previous attempt started, so a retry delayed by an outage does not make
 * the next one follow it at once.
 */
@Injectable()
export class RetrySchedule {
  private readonly offsetsMs: number[];

  constructor(config: WebhooksOutConfig) {
    this.offsetsMs = [0, ...parseSecondsList(config.WEBHOOK_RETRY_DELAYS_SECONDS).map((seconds) => Math.round(seconds * 1000))];
  }

  /** When the attempt after the one at `seriesPosition` (0 = first) is due, or null when that was the last. */
  nextAttemptAt(seriesPosition: number, previousAttemptAt: Date): Date | null {
    const next = seriesPosition + 1;
    if (next >= this.offsetsMs.length) return null;
    return new Date(previousAttemptAt.getTime() + this.offsetsMs[next] - this.offsetsMs[seriesPosition]);
  }
}
