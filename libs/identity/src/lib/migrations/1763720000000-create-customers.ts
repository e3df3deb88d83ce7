import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCustomers1763720000000 implements MigrationInterface {
  name = 'CreateCustomers1763720000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE customers (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        email text NOT NULL,
        name text NOT NULL,
        password_hash text NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz NULL
      )`);
    await runner.query('CREATE UNIQUE INDEX customers_publication_id_email_key ON customers (publication_id, email)');
    await runner.query(`
      CREATE TABLE login_failures (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        email text NOT NULL,
        failed_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX login_failures_publication_id_email_failed_at_idx ON login_failures (publication_id, email, failed_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE login_failures');
    await runner.query('DROP TABLE customers');
  }
}
