import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Offers (issue #25 item 1), and which offer a checkout and a subscription were started with. */
export class CreateOffers1795730000000 implements MigrationInterface {
  name = 'CreateOffers1795730000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE offers (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        code text NOT NULL CHECK (code ~ '^[A-Z0-9_-]{3,40}$'),
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('percent', 'amount', 'trial')),
        percent_off integer NULL CHECK (percent_off BETWEEN 1 AND 100),
        amount_off integer NULL CHECK (amount_off > 0),
        currency text NULL CHECK (currency ~ '^[a-z]{3}$'),
        duration text NULL CHECK (duration IN ('once', 'repeating', 'forever')),
        duration_in_months integer NULL CHECK (duration_in_months BETWEEN 1 AND 36),
        trial_days integer NULL CHECK (trial_days BETWEEN 1 AND 730),
        price_ids uuid[] NOT NULL DEFAULT '{}',
        max_redemptions integer NULL CHECK (max_redemptions > 0),
        starts_at timestamptz NULL,
        ends_at timestamptz NULL,
        new_customers_only boolean NOT NULL DEFAULT false,
        active boolean NOT NULL DEFAULT true,
        processor_coupon_id text NULL,
        processor_promotion_code_id text NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE UNIQUE INDEX offers_publication_code_key ON offers (publication_id, code)');
    await runner.query('CREATE INDEX offers_publication_page_idx ON offers (publication_id, created_at DESC, id DESC)');
    await runner.query('ALTER TABLE checkout_sessions ADD COLUMN offer_id uuid NULL');
    await runner.query('ALTER TABLE subscriptions ADD COLUMN offer_id uuid NULL, ADD COLUMN offer_code text NULL');
    await runner.query('CREATE INDEX subscriptions_offer_idx ON subscriptions (offer_id) WHERE offer_id IS NOT NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX subscriptions_offer_idx');
    await runner.query('ALTER TABLE subscriptions DROP COLUMN offer_id, DROP COLUMN offer_code');
    await runner.query('ALTER TABLE checkout_sessions DROP COLUMN offer_id');
    await runner.query('DROP TABLE offers');
  }
}
