import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ERASURE_STEPS, PersonalDataRequests, type ErasureStep, type ErasureStepResult, type ReaderIdentifiers } from '@gatehouse/contracts';
import { BusClient, DueWorkScheduler } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { ERASURE_ADDED, ErasuresService, type Erasure } from './erasures.service';

/**
 * Runs erasures to the end: each service's step in turn over the bus (ERASURE_STEPS), a step
 * recorded once the service says it is done. A service that does not answer, fails, or has
 * something still to settle leaves the erasure for a later attempt, from where it stopped.
 */
@Injectable()
export class ErasureRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ErasureRunner.name);
  private readonly scheduler: DueWorkScheduler<Erasure>;

  constructor(
    dataSource: DataSource,
    clock: Clock,
    private readonly erasures: ErasuresService,
    private readonly bus: BusClient,
  ) {
    this.scheduler = new DueWorkScheduler(
      dataSource,
      clock,
      { claimDue: (limit) => erasures.claimDue(limit), perform: (erasure) => this.run(erasure), nextDueAt: () => erasures.nextDueAt() },
      { name: 'customer erasures', addedFlag: ERASURE_ADDED, pollIntervalMs: 1_000, maxInFlight: 4, stopGraceMs: 6_000 },
    );
  }

  onApplicationBootstrap(): void {
    this.scheduler.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.scheduler.stop();
  }

  private async run(erasure: Erasure): Promise<void> {
    for (const step of ERASURE_STEPS) {
      if (erasure.stepsDone.includes(step)) continue;
      let result: ErasureStepResult;
      try {
        result = await this.perform(step, erasure);
      } catch (err) {
        this.logger.warn(`Erasure step ${step} failed; it is tried again: ${err instanceof Error ? err.message : String(err)}`);
        return this.erasures.later(erasure, `${step}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!result.done) return this.erasures.later(erasure, `${step}: waiting for events naming the customer to settle`);
      // Identity's step deletes the erasure with the customer.
      if (step !== 'identity') await this.erasures.stepDone(erasure, step);
    }
  }

  private async perform(step: ErasureStep, erasure: Erasure): Promise<ErasureStepResult> {
    const reader: ReaderIdentifiers = { publicationId: erasure.publicationId, customerId: erasure.customerId, email: erasure.email };
    switch (step) {
      case 'access':
        return this.bus.request(PersonalDataRequests.AccessErase, { ...reader, requestedAt: erasure.requestedAt.toISOString() });
      case 'billing':
        return this.bus.request(PersonalDataRequests.BillingErase, reader);
      case 'webhooks-out':
        return this.bus.request(PersonalDataRequests.WebhooksOutErase, { ...reader, deletedEventId: erasure.deletedEventId, requestedAt: erasure.requestedAt.toISOString() });
      case 'identity':
        return { done: await this.erasures.eraseIdentity(erasure) };
    }
  }
}
