import { createThrottleTable } from '@gatehouse/db';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Staff login (and invitation accept) failures count in a table of counters (AttemptThrottle) instead of a row per attempt. */
export class CountStaffLoginsInThrottleCounters1764100000000 implements MigrationInterface {
  name = 'CountStaffLoginsInThrottleCounters1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    await createThrottleTable(runner);
    await runner.query('DROP TABLE login_failures');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE TABLE login_failures (id uuid PRIMARY KEY, email text NOT NULL, failed_at timestamptz NOT NULL)');
    await runner.query('DROP TABLE throttle_counters');
  }
}
