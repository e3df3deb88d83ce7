import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWebhooksOutTables1763767431852 implements MigrationInterface {
  name = 'CreateWebhooksOutTables1763767431852';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text NULL,
        secret_sealed text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX webhooks_publication_idx ON webhooks (publication_id, created_at)');
    await runner.query(`
      CREATE TABLE deliveries (
        id uuid PRIMARY KEY,
        webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        event_id uuid NULL,
        event text NOT NULL,
        body text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
        created_at timestamptz NOT NULL,
        UNIQUE (webhook_id, event_id)
      )`);
    await runner.query(`
      CREATE TABLE delivery_attempts (
        id uuid PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
        webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        number integer NOT NULL,
        series_position integer NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'sending', 'succeeded', 'failed')),
        due_at timestamptz NOT NULL,
        lease_until timestamptz NULL,
        attempted_at timestamptz NULL,
        response_code integer NULL,
        response_body text NULL,
        duration_ms integer NULL,
        error text NULL,
        created_at timestamptz NOT NULL,
        UNIQUE (delivery_id, number)
      )`);
    await runner.query("CREATE INDEX delivery_attempts_due_idx ON delivery_attempts (due_at) WHERE status = 'pending'");
    await runner.query("CREATE INDEX delivery_attempts_lease_idx ON delivery_attempts (lease_until) WHERE status = 'sending'");
    await runner.query('CREATE INDEX delivery_attempts_log_idx ON delivery_attempts (webhook_id, created_at DESC, number DESC)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE delivery_attempts');
    await runner.query('DROP TABLE deliveries');
    await runner.query('DROP TABLE webhooks');
  }
}
