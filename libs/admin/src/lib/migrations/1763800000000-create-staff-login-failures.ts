import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateStaffLoginFailures1763800000000 implements MigrationInterface {
  name = 'CreateStaffLoginFailures1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE login_failures (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        failed_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX login_failures_email ON login_failures (email, failed_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE login_failures');
  }
}
