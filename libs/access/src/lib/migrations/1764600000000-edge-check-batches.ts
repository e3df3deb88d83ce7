import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The batches of gateway-answered checks already recorded: a batch sent again (its answer lost) is recorded once. */
export class EdgeCheckBatches1764600000000 implements MigrationInterface {
  name = 'EdgeCheckBatches1764600000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE edge_check_batches (id uuid PRIMARY KEY, received_at timestamptz NOT NULL)`);
    await runner.query(`CREATE INDEX edge_check_batches_received_at ON edge_check_batches (received_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE edge_check_batches`);
  }
}
