import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Work a service does every `intervalMs` on whatever has come due (grants to end, plan changes to
 * make, old rows to prune): `sweep()` runs on a timer that does not keep the process alive, a
 * failed round is logged and the next one tries again, and shutdown waits for the round in progress.
 */
export abstract class PeriodicSweep implements OnApplicationBootstrap, OnModuleDestroy {
  protected readonly logger = new Logger(this.constructor.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  protected constructor(
    private readonly intervalMs: number,
    /** What a round does, for the log line of a failed one: "ending expired manual grants". */
    private readonly work: string,
  ) {}

  /** One round now: everything due. */
  abstract sweep(): Promise<unknown>;

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running = this.sweep().catch((err: unknown) => this.logger.warn(`${this.work} failed: ${err instanceof Error ? err.message : String(err)}`));
    }, this.intervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}

/**
 * Runs `batch` in one transaction after another until it takes fewer than `size` rows. Each batch
 * takes its rows `FOR UPDATE SKIP LOCKED`, so replicas sweeping at once share the rows. Resolves
 * with how many rows were taken.
 */
export async function inBatches(dataSource: DataSource, size: number, batch: (manager: EntityManager) => Promise<number>): Promise<number> {
  let taken = 0;
  for (;;) {
    const count = await dataSource.transaction(batch);
    taken += count;
    if (count < size) return taken;
  }
}
