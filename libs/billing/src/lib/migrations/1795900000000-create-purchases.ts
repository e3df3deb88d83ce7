import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passes and single articles (issue #25 item 4): two more one-time price intervals, a pass's
 * hours, and the purchases they buy, one per paid checkout.
 */
export class CreatePurchases1795900000000 implements MigrationInterface {
  name = 'CreatePurchases1795900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE prices DROP CONSTRAINT prices_interval_check`);
    await runner.query(`ALTER TABLE prices ADD CONSTRAINT prices_interval_check CHECK (interval IN ('month', 'year', 'lifetime', 'pass', 'single_article'))`);
    await runner.query(`
      ALTER TABLE prices ADD COLUMN pass_hours integer NULL,
        ADD CONSTRAINT prices_pass_hours_check CHECK ((interval = 'pass') = (pass_hours IS NOT NULL) AND (pass_hours IS NULL OR pass_hours BETWEEN 1 AND 8760))`);
    await runner.query(`
      CREATE TABLE purchases (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        customer_id uuid NOT NULL,
        price_id uuid NOT NULL REFERENCES prices (id),
        kind text NOT NULL CHECK (kind IN ('pass', 'single_article')),
        url text NULL,
        page_key text NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NULL,
        processor_checkout_session_id text NOT NULL,
        processor_payment_intent_id text NULL,
        created_at timestamptz NOT NULL,
        CHECK ((kind = 'single_article') = (page_key IS NOT NULL AND url IS NOT NULL AND ends_at IS NULL)),
        UNIQUE (publication_id, processor_checkout_session_id)
      )`);
    await runner.query('CREATE INDEX purchases_customer_idx ON purchases (publication_id, customer_id)');
    await runner.query('CREATE INDEX purchases_created_idx ON purchases (publication_id, created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE purchases');
    await runner.query(`DELETE FROM prices WHERE interval IN ('pass', 'single_article')`);
    await runner.query('ALTER TABLE prices DROP CONSTRAINT prices_pass_hours_check, DROP COLUMN pass_hours');
    await runner.query(`ALTER TABLE prices DROP CONSTRAINT prices_interval_check`);
    await runner.query(`ALTER TABLE prices ADD CONSTRAINT prices_interval_check CHECK (interval IN ('month', 'year', 'lifetime'))`);
  }
}
