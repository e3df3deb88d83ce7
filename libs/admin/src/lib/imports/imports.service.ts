import { Injectable } from '@nestjs/common';
import {
  IMPORT_PROBLEMS_SHOWN,
  type ImportJobSummary,
  type ImportJobView,
  type ImportRow,
  type ImportStatus,
  type Page,
  type PageRequest,
  type RowProblem,
} from '@gatehouse/contracts';
import { newestFirst, pageOf } from '@gatehouse/db';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, In, type EntityManager } from 'typeorm';
import { ImportJob } from './import-job.entity';

/** Set on a transaction that gave a job work to do, so the runner looks as soon as it commits. */
export const IMPORT_WORK_ADDED = 'adminImportWorkAdded';
/** How long a runner holds a job between batches (longer than a batch's two requests may wait); a runner that stopped leaves it to another after this. */
const LEASE_MS = 180_000;
/** A batch that failed (a service down, the processor failing) is tried again this much later. */
const RETRY_MS = 5_000;
const WORKING: ImportStatus[] = ['checking', 'importing'];

/** What a batch came to, added to the job's counts as its cursor moves past it. */
export interface BatchOutcome {
  lastLine: number;
  problems: RowProblem[];
  customersCreated: number;
  customersUnchanged: number;
  subscriptionsCreated: number;
  subscriptionsUnchanged: number;
}

/**
 * Import jobs of a publication (docs/imports.md): the rows uploaded, the dry run's report, and the
 * cursor and counts of the pass in progress. Every lookup is scoped by publication, so another
 * publication's job does not exist.
 */
@Injectable()
export class ImportsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async create(publicationId: string, notifyReaders: boolean): Promise<ImportJobView> {
    const now = this.clock.now();
    const jobs = this.dataSource.getRepository(ImportJob);
    const job = jobs.create({
      id: randomUUID(),
      publicationId,
      status: 'uploading',
      notifyReaders,
      totalRows: 0,
      nextLine: 0,
      customersCreated: 0,
      customersUnchanged: 0,
      subscriptionsCreated: 0,
      subscriptionsUnchanged: 0,
      leaseUntil: null,
      createdAt: now,
      updatedAt: now,
    });
    await jobs.insert(job);
    return this.view(job);
  }

  /** Rows again (a retried upload request) are kept once. */
  async addRows(publicationId: string, jobId: string, rows: ImportRow[], problems: RowProblem[]): Promise<{ added: number }> {
    return this.dataSource.transaction(async (manager) => {
      await this.locked(manager, publicationId, jobId, 'uploading');
      const lines = [...rows.map((row) => row.line), ...problems.map((problem) => problem.line)];
      const inserted: Array<{ line: number }> = await manager.query(
        `INSERT INTO import_rows (job_id, line, row, problem)
         SELECT $1, unnest($2::integer[]), unnest($3::jsonb[]), unnest($4::text[]) ON CONFLICT DO NOTHING RETURNING line`,
        [
          jobId,
          lines,
          [...rows.map(({ line: _line, ...row }) => JSON.stringify(row)), ...problems.map(() => null)],
          [...rows.map(() => null), ...problems.map((problem) => problem.reason)],
        ],
      );
      await manager.query('UPDATE import_jobs SET total_rows = total_rows + $2, updated_at = $3 WHERE id = $1', [jobId, inserted.length, this.clock.now()]);
      return { added: inserted.length };
    });
  }

  async discard(publicationId: string, jobId: string): Promise<{ deleted: true }> {
    await this.dataSource.transaction(async (manager) => {
      await this.locked(manager, publicationId, jobId, 'uploading');
      await manager.query('DELETE FROM import_jobs WHERE id = $1', [jobId]);
    });
    return { deleted: true };
  }

  /** The upload is complete: the dry run begins. */
  check(publicationId: string, jobId: string): Promise<ImportJobView> {
    return this.startPass(publicationId, jobId, 'uploading', 'checking');
  }

  /** The dry run stands: the import begins, over the rows it found no fault with. */
  run(publicationId: string, jobId: string): Promise<ImportJobView> {
    return this.startPass(publicationId, jobId, 'checked', 'importing');
  }

  async get(publicationId: string, jobId: string): Promise<ImportJobView> {
    return this.view(await this.find(this.dataSource.manager, publicationId, jobId));
  }

  async list(publicationId: string, request: PageRequest): Promise<Page<ImportJobSummary>> {
    const query = this.dataSource.getRepository(ImportJob).createQueryBuilder('job').where('job.publication_id = :publicationId', { publicationId });
    const page = await pageOf(query, newestFirst(query.alias), request, (job) => job);
    return { items: await Promise.all(page.items.map((job) => this.summary(job))), nextCursor: page.nextCursor };
  }

  /** Jobs with a pass in progress and no runner (none yet, or one that stopped), leased to this one. */
  async claimDue(limit: number): Promise<ImportJob[]> {
    const now = this.clock.now();
    const [claimed]: [Array<{ id: string }>, number] = await this.dataSource.query(
      `UPDATE import_jobs SET lease_until = $2 WHERE id IN (
         SELECT id FROM import_jobs WHERE status = ANY($3) AND (lease_until IS NULL OR lease_until < $1)
         ORDER BY updated_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [now, new Date(now.getTime() + LEASE_MS), WORKING, limit],
    );
    return claimed.length === 0 ? [] : this.dataSource.getRepository(ImportJob).findBy({ id: In(claimed.map(({ id }) => id)) });
  }

  async nextDueAt(): Promise<Date | null> {
    const [row] = await this.dataSource.query<Array<{ due: Date | null }>>('SELECT min(coalesce(lease_until, updated_at)) AS due FROM import_jobs WHERE status = ANY($1)', [WORKING]);
    return row.due;
  }

  /** The next rows of the pass, from the job's cursor; rows already found bad are left out. */
  async nextBatch(job: ImportJob, size: number): Promise<ImportRow[]> {
    const rows: Array<{ line: number; row: Omit<ImportRow, 'line'> }> = await this.dataSource.query(
      'SELECT line, row FROM import_rows WHERE job_id = $1 AND line >= $2 AND problem IS NULL ORDER BY line LIMIT $3',
      [job.id, job.nextLine, size],
    );
    return rows.map(({ line, row }) => ({ ...row, line }));
  }

  /** Records a batch done: its bad rows, its counts, the cursor past it and a renewed lease, together. */
  async batchDone(job: ImportJob, outcome: BatchOutcome): Promise<void> {
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      if (outcome.problems.length > 0) {
        await manager.query(
          `UPDATE import_rows SET problem = p.reason FROM unnest($2::integer[], $3::text[]) AS p(line, reason)
           WHERE import_rows.job_id = $1 AND import_rows.line = p.line`,
          [job.id, outcome.problems.map((problem) => problem.line), outcome.problems.map((problem) => problem.reason)],
        );
      }
      await manager.query(
        `UPDATE import_jobs SET next_line = $2, customers_created = customers_created + $3, customers_unchanged = customers_unchanged + $4,
           subscriptions_created = subscriptions_created + $5, subscriptions_unchanged = subscriptions_unchanged + $6, lease_until = $7, updated_at = $8
         WHERE id = $1`,
        [
          job.id,
          outcome.lastLine + 1,
          outcome.customersCreated,
          outcome.customersUnchanged,
          outcome.subscriptionsCreated,
          outcome.subscriptionsUnchanged,
          new Date(now.getTime() + LEASE_MS),
          now,
        ],
      );
    });
    job.nextLine = outcome.lastLine + 1;
  }

  /** The pass went through every row: the check's report stands, or the import is done. */
  async passDone(job: ImportJob): Promise<void> {
    const status: ImportStatus = job.status === 'checking' ? 'checked' : 'imported';
    await this.dataSource.query('UPDATE import_jobs SET status = $2, lease_until = NULL, updated_at = $3 WHERE id = $1', [job.id, status, this.clock.now()]);
  }

  /** Lets another runner (or this one, later) carry on from the cursor: at once when stopping, after a pause when a batch failed. */
  async release(job: ImportJob, afterFailure: boolean): Promise<void> {
    const until = afterFailure ? new Date(this.clock.now().getTime() + RETRY_MS) : null;
    await this.dataSource.query('UPDATE import_jobs SET lease_until = $2 WHERE id = $1', [job.id, until]);
  }

  private async startPass(publicationId: string, jobId: string, from: ImportStatus, to: ImportStatus): Promise<ImportJobView> {
    const job = await this.dataSource.transaction(async (manager) => {
      const job = await this.locked(manager, publicationId, jobId, from);
      Object.assign(job, {
        status: to,
        nextLine: 0,
        customersCreated: 0,
        customersUnchanged: 0,
        subscriptionsCreated: 0,
        subscriptionsUnchanged: 0,
        leaseUntil: null,
        updatedAt: this.clock.now(),
      });
      await manager.save(job);
      if (manager.queryRunner) manager.queryRunner.data[IMPORT_WORK_ADDED] = true;
      return job;
    });
    return this.view(job);
  }

  private async locked(manager: EntityManager, publicationId: string, jobId: string, status: ImportStatus): Promise<ImportJob> {
    const job = await this.find(manager, publicationId, jobId, true);
    if (job.status !== status) throw new AppError('conflict', `This import is ${job.status}; that needs it ${status}.`);
    return job;
  }

  private async find(manager: EntityManager, publicationId: string, jobId: string, lock = false): Promise<ImportJob> {
    const job = isUuid(jobId)
      ? await manager.findOne(ImportJob, { where: { id: jobId, publicationId }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) })
      : null;
    if (!job) throw new AppError('not_found', 'No such import.');
    return job;
  }

  private async summary(job: ImportJob): Promise<ImportJobSummary> {
    const [counts] = await this.dataSource.query<Array<{ processed: number; failed: number }>>(
      `SELECT count(*) FILTER (WHERE line < $2)::int AS processed, count(*) FILTER (WHERE problem IS NOT NULL)::int AS failed
       FROM import_rows WHERE job_id = $1`,
      [job.id, job.status === 'checked' || job.status === 'imported' ? 2 ** 31 - 1 : job.status === 'uploading' ? 0 : job.nextLine],
    );
    return {
      id: job.id,
      status: job.status,
      notifyReaders: job.notifyReaders,
      totalRows: job.totalRows,
      processedRows: counts.processed,
      failedRows: counts.failed,
      customers: { created: job.customersCreated, unchanged: job.customersUnchanged },
      subscriptions: { created: job.subscriptionsCreated, unchanged: job.subscriptionsUnchanged },
      createdAt: job.createdAt.toISOString(),
      updatedAt: job.updatedAt.toISOString(),
    };
  }

  private async view(job: ImportJob): Promise<ImportJobView> {
    const problems: RowProblem[] = await this.dataSource.query(
      'SELECT line, problem AS reason FROM import_rows WHERE job_id = $1 AND problem IS NOT NULL ORDER BY line LIMIT $2',
      [job.id, IMPORT_PROBLEMS_SHOWN],
    );
    return { ...(await this.summary(job)), problems };
  }
}
