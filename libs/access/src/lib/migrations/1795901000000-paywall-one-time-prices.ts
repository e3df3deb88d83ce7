import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Passes and single articles (issue #25 item 4): the one-time prices a paywall offers beside the subscription plans. */
export class PaywallOneTimePrices1795901000000 implements MigrationInterface {
  name = 'PaywallOneTimePrices1795901000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE paywalls ADD COLUMN one_time_price_ids uuid[] NOT NULL DEFAULT '{}'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE paywalls DROP COLUMN one_time_price_ids');
  }
}
