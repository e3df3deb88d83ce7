import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables behind the transactional outbox and consumer de-duplication. Unqualified on purpose:
 * every service runs this migration in its own schema (search_path).
 */
export class CreateBusTables1763700000000 implements MigrationInterface {
  name = 'CreateBusTables1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outbox (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        publication_id uuid NULL,
        data jsonb NOT NULL,
        occurred_at timestamptz NOT NULL,
        published_at timestamptz NULL
      )`);
    await queryRunner.query('CREATE INDEX outbox_unpublished_idx ON outbox (occurred_at) WHERE published_at IS NULL');
    await queryRunner.query(`
      CREATE TABLE processed_events (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE processed_events');
    await queryRunner.query('DROP TABLE outbox');
  }
}
