import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Plan changes waiting for the period end, paused collection, and what a pause does to access. */
export class AddPlanChangesAndPauses1764400000000 implements MigrationInterface {
  name = 'AddPlanChangesAndPauses1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE subscriptions ADD COLUMN paused_until timestamptz, ADD COLUMN scheduled_price_id uuid');
    await runner.query('CREATE INDEX subscriptions_scheduled_change ON subscriptions (current_period_end) WHERE scheduled_price_id IS NOT NULL');
    await runner.query(
      `CREATE TABLE subscription_settings (
         publication_id uuid PRIMARY KEY,
         paused_access text NOT NULL DEFAULT 'keep' CHECK (paused_access IN ('keep', 'suspend')),
         updated_at timestamptz NOT NULL
       )`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE subscription_settings');
    await runner.query('DROP INDEX subscriptions_scheduled_change');
    await runner.query('ALTER TABLE subscriptions DROP COLUMN paused_until, DROP COLUMN scheduled_price_id');
  }
}
