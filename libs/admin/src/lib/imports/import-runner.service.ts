import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ImportRequests, type CustomerImportResult, type ImportRow, type RowProblem } from '@gatehouse/contracts';
import { BusClient, DueWorkScheduler } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import type { ImportJob } from './import-job.entity';
import { IMPORT_WORK_ADDED, ImportsService, type BatchOutcome } from './imports.service';

/** Rows per batch: one request to identity and one to billing, each one transaction of a few statements there. */
const IMPORT_BATCH_ROWS = 500;
/** A batch may wait on the processor for its look-ups: longer than the bus's usual 5 s. */
const BATCH_TIMEOUT_MS = 60_000;

/**
 * Runs import jobs' passes (the check, then the import) batch by batch from the job's cursor, the
 * cursor moving only once a batch is done: a runner that stops, or a batch that fails, leaves the
 * job to carry on from there, and each batch is safe to repeat (customers are found by email,
 * subscriptions by what they are), so a resumed pass imports nothing twice.
 */
@Injectable()
export class ImportRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ImportRunner.name);
  private readonly scheduler: DueWorkScheduler<ImportJob>;
  private stopping = false;

  constructor(
    dataSource: DataSource,
    clock: Clock,
    private readonly imports: ImportsService,
    private readonly bus: BusClient,
  ) {
    this.scheduler = new DueWorkScheduler(
      dataSource,
      clock,
      { claimDue: (limit) => imports.claimDue(limit), perform: (job) => this.run(job), nextDueAt: () => imports.nextDueAt() },
      { name: 'imports', addedFlag: IMPORT_WORK_ADDED, pollIntervalMs: 1_000, maxInFlight: 2, stopGraceMs: BATCH_TIMEOUT_MS },
    );
  }

  onApplicationBootstrap(): void {
    this.scheduler.start();
  }

  onModuleDestroy(): Promise<void> {
    this.stopping = true;
    return this.scheduler.stop();
  }

  private async run(job: ImportJob): Promise<void> {
    for (;;) {
      if (this.stopping) return this.imports.release(job, false);
      const rows = await this.imports.nextBatch(job, IMPORT_BATCH_ROWS);
      if (rows.length === 0) return this.imports.passDone(job);
      let outcome: BatchOutcome;
      try {
        outcome = await this.batch(job, rows);
      } catch (err) {
        this.logger.warn(`A batch of import ${job.id} failed; it is tried again: ${err instanceof Error ? err.message : String(err)}`);
        return this.imports.release(job, true);
      }
      await this.imports.batchDone(job, outcome);
    }
  }

  private async batch(job: ImportJob, rows: ImportRow[]): Promise<BatchOutcome> {
    const dryRun = job.status === 'checking';
    const { publicationId } = job;
    const customers = new Map<string, string>();
    for (const row of rows) if (!customers.has(row.email)) customers.set(row.email, row.name);
    const imported = await this.bus.request(
      ImportRequests.ImportCustomers,
      { publicationId, dryRun, notifyReaders: job.notifyReaders, customers: [...customers].map(([email, name]) => ({ email, name })) },
      BATCH_TIMEOUT_MS,
    );
    const byEmail = new Map<string, CustomerImportResult>(imported.customers.map((customer) => [customer.email, customer]));
    const { results } = await this.bus.request(
      ImportRequests.ImportSubscriptions,
      {
        publicationId,
        dryRun,
        rows: rows.map((row) => ({
          line: row.line,
          customerId: byEmail.get(row.email)?.customerId ?? null,
          plan: row.plan,
          currentPeriodEnd: row.currentPeriodEnd,
          processorCustomerId: row.processorCustomerId,
          processorSubscriptionId: row.processorSubscriptionId,
        })),
      },
      BATCH_TIMEOUT_MS,
    );
    const problems: RowProblem[] = results.flatMap((result) => (result.outcome === 'failed' ? [{ line: result.line, reason: result.reason ?? 'refused' }] : []));
    const count = (outcome: string) => results.filter((result) => result.outcome === outcome).length;
    // A dry run counts the customers of the rows the import will take; an import, those it stored.
    const failed = new Set(problems.map((problem) => problem.line));
    const counted = dryRun ? new Set(rows.filter((row) => !failed.has(row.line)).map((row) => row.email)) : new Set(byEmail.keys());
    const customersOf = (created: boolean) => [...counted].filter((email) => byEmail.get(email)?.created === created).length;
    return {
      lastLine: rows[rows.length - 1].line,
      problems,
      customersCreated: customersOf(true),
      customersUnchanged: customersOf(false),
      subscriptionsCreated: count('created'),
      subscriptionsUnchanged: count('unchanged'),
    };
  }
}
