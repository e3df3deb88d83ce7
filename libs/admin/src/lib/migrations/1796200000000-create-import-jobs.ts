import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Imports of customers and subscriptions: the job, its counts and cursor, and the file's rows with each bad row's reason. */
export class CreateImportJobs1796200000000 implements MigrationInterface {
  name = 'CreateImportJobs1796200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE import_jobs (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        status text NOT NULL,
        notify_readers boolean NOT NULL,
        total_rows integer NOT NULL DEFAULT 0,
        next_line integer NOT NULL DEFAULT 0,
        customers_created integer NOT NULL DEFAULT 0,
        customers_unchanged integer NOT NULL DEFAULT 0,
        subscriptions_created integer NOT NULL DEFAULT 0,
        subscriptions_unchanged integer NOT NULL DEFAULT 0,
        lease_until timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX import_jobs_publication_id_created_at_id_idx ON import_jobs (publication_id, created_at DESC, id DESC)');
    await runner.query(`CREATE INDEX import_jobs_working_idx ON import_jobs (lease_until) WHERE status IN ('checking', 'importing')`);
    await runner.query(`
      CREATE TABLE import_rows (
        job_id uuid NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
        line integer NOT NULL,
        row jsonb NULL,
        problem text NULL,
        PRIMARY KEY (job_id, line)
      )`);
    await runner.query('CREATE INDEX import_rows_problems_idx ON import_rows (job_id, line) WHERE problem IS NOT NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE import_rows');
    await runner.query('DROP TABLE import_jobs');
  }
}
