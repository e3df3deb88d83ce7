import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cancellation that tries to save and win-back (issue #27 items 2 and 5): each publication's
 * reasons (label, shown or not, order, save offer), the answers readers gave (a cancellation with
 * its reason, or a save accepted: one of each per subscription), the win-back setting, and the
 * win-back email asked of identity, one per subscription ever.
 */
export class AddSaveOffersAndWinBack1796100000000 implements MigrationInterface {
  name = 'AddSaveOffersAndWinBack1796100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE cancellation_reasons (
        publication_id uuid NOT NULL,
        reason text NOT NULL,
        position integer NOT NULL,
        label text NULL CHECK (char_length(label) BETWEEN 1 AND 120),
        enabled boolean NOT NULL,
        save_kind text NULL CHECK (save_kind IN ('discount', 'pause', 'plan_change')),
        save_offer_id uuid NULL,
        save_pause_months integer NULL CHECK (save_pause_months BETWEEN 1 AND 3),
        save_price_id uuid NULL,
        PRIMARY KEY (publication_id, reason)
      )`);
    await runner.query(`
      CREATE TABLE cancellation_answers (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        subscription_id uuid NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
        reason text NOT NULL,
        save_kind text NULL,
        accepted boolean NOT NULL,
        answered_at timestamptz NOT NULL,
        UNIQUE (subscription_id, accepted)
      )`);
    await runner.query(`CREATE INDEX cancellation_answers_publication_answered_at ON cancellation_answers (publication_id, answered_at)`);
    await runner.query(`
      CREATE TABLE win_back_settings (
        publication_id uuid PRIMARY KEY,
        enabled boolean NOT NULL,
        days integer NOT NULL CHECK (days BETWEEN 1 AND 365),
        offer_id uuid NULL,
        enabled_at timestamptz NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE win_back_notices (
        subscription_id uuid PRIMARY KEY REFERENCES subscriptions (id) ON DELETE CASCADE,
        publication_id uuid NOT NULL,
        customer_id uuid NOT NULL,
        offer_id uuid NOT NULL,
        sent_at timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX win_back_notices_publication_sent_at ON win_back_notices (publication_id, sent_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE win_back_notices`);
    await runner.query(`DROP TABLE win_back_settings`);
    await runner.query(`DROP TABLE cancellation_answers`);
    await runner.query(`DROP TABLE cancellation_reasons`);
  }
}
