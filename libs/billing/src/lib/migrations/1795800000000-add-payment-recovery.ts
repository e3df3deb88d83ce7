import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failed-payment recovery (issue #27 item 4): the publication's grace period for past_due
 * subscriptions, and the payment emails asked of identity, one per subject (an invoice, a card)
 * and kind, so that a redelivered event or a restart asks for none twice.
 */
export class AddPaymentRecovery1795800000000 implements MigrationInterface {
  name = 'AddPaymentRecovery1795800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE subscription_settings ADD COLUMN past_due_grace_days integer NULL CHECK (past_due_grace_days BETWEEN 0 AND 60)`);
    await runner.query(`ALTER TABLE subscription_settings ALTER COLUMN paused_access SET DEFAULT 'keep'`);
    await runner.query(`
      CREATE TABLE payment_notices (
        publication_id uuid NOT NULL,
        subject_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('payment_failed', 'payment_retry', 'payment_final', 'card_expiring')),
        customer_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (publication_id, subject_id, kind)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE payment_notices`);
    await runner.query(`ALTER TABLE subscription_settings ALTER COLUMN paused_access DROP DEFAULT`);
    await runner.query(`ALTER TABLE subscription_settings DROP COLUMN past_due_grace_days`);
  }
}
