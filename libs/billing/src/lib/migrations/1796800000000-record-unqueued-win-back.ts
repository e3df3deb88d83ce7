import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A win-back notice identity did not queue (the customer erased meanwhile, or no longer the
 * publication's) is kept, so it is never asked again, but no longer counted as an email sent.
 */
export class RecordUnqueuedWinBack1796800000000 implements MigrationInterface {
  name = 'RecordUnqueuedWinBack1796800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE win_back_notices ADD COLUMN queued boolean NOT NULL DEFAULT true`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE win_back_notices DROP COLUMN queued`);
  }
}
