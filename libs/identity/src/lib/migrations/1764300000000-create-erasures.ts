import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The durable record of a customer's erasure (docs/customers.md): which services' steps are done,
 * and when to try the rest again. The row goes with the customer's own, at the last step.
 */
export class CreateErasures1764300000000 implements MigrationInterface {
  name = 'CreateErasures1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE erasures (
        customer_id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        email text NOT NULL,
        deleted_event_id uuid NOT NULL,
        steps_done text[] NOT NULL DEFAULT '{}',
        attempts integer NOT NULL DEFAULT 0,
        due_at timestamptz NOT NULL,
        lease_until timestamptz NULL,
        last_error text NULL,
        requested_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX erasures_due_idx ON erasures (due_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE erasures');
  }
}
