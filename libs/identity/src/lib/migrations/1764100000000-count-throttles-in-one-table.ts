import { createThrottleTable } from '@gatehouse/db';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The login and account-email throttles count in one table of counters (AttemptThrottle) instead of a row per attempt. */
export class CountThrottlesInOneTable1764100000000 implements MigrationInterface {
  name = 'CountThrottlesInOneTable1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    await createThrottleTable(runner);
    await runner.query('DROP TABLE login_failures');
    await runner.query('DROP TABLE email_requests');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE TABLE login_failures (id uuid PRIMARY KEY, publication_id uuid NOT NULL, email text NOT NULL, failed_at timestamptz NOT NULL)');
    await runner.query('CREATE TABLE email_requests (id uuid PRIMARY KEY, publication_id uuid NOT NULL, email text NOT NULL, kind text NOT NULL, requested_at timestamptz NOT NULL)');
    await runner.query('DROP TABLE throttle_counters');
  }
}
