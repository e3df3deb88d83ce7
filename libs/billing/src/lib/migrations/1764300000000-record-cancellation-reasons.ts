import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Why a reader cancelled (issue #24): what they picked in the account element or the processor's portal. */
export class RecordCancellationReasons1764300000000 implements MigrationInterface {
  name = 'RecordCancellationReasons1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE subscriptions ADD COLUMN cancellation_reason text');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE subscriptions DROP COLUMN cancellation_reason');
  }
}
