import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Gift subscriptions (issue #25 item 2), and `gift` as a subscription's source. */
export class CreateGifts1796000000000 implements MigrationInterface {
  name = 'CreateGifts1796000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE gifts (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        code_hash text NOT NULL UNIQUE,
        code_sealed text NULL,
        status text NOT NULL CHECK (status IN ('pending', 'purchased', 'redeemed', 'voided')),
        price_id uuid NOT NULL REFERENCES prices (id),
        months integer NOT NULL CHECK (months IN (1, 3, 6, 12)),
        amount integer NOT NULL CHECK (amount >= 0),
        currency text NOT NULL,
        buyer_customer_id uuid NULL,
        buyer_email text NOT NULL,
        buyer_name text NOT NULL,
        recipient_email text NOT NULL,
        recipient_name text NOT NULL,
        message text NULL,
        redeem_url text NULL,
        send_at timestamptz NOT NULL,
        processor_session_id text NOT NULL UNIQUE,
        processor_payment_intent_id text NULL,
        purchased_at timestamptz NULL,
        emailed_at timestamptz NULL,
        redeemed_at timestamptz NULL,
        redeemed_by uuid NULL,
        subscription_id uuid NULL,
        reminded_at timestamptz NULL,
        voided_at timestamptz NULL,
        void_reason text NULL CHECK (void_reason IN ('refunded', 'cancelled')),
        created_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX gifts_publication_page_idx ON gifts (publication_id, created_at DESC, id DESC)');
    await runner.query('CREATE INDEX gifts_payment_intent_idx ON gifts (processor_payment_intent_id) WHERE processor_payment_intent_id IS NOT NULL');
    await runner.query(`CREATE INDEX gifts_email_due_idx ON gifts (send_at) WHERE status = 'purchased' AND emailed_at IS NULL`);
    await runner.query(`CREATE INDEX gifts_reminder_due_idx ON gifts (subscription_id) WHERE status = 'redeemed' AND reminded_at IS NULL`);
    await runner.query('ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_source_check');
    await runner.query(`ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_source_check CHECK (source IN ('processor', 'manual', 'gift'))`);
    await runner.query(`CREATE INDEX subscriptions_fixed_end_idx ON subscriptions (current_period_end) WHERE source IN ('manual', 'gift') AND status <> 'cancelled'`);
    await runner.query('DROP INDEX subscriptions_manual_end_idx');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX subscriptions_manual_end_idx ON subscriptions (current_period_end) WHERE source = 'manual' AND status <> 'cancelled'`);
    await runner.query('DROP INDEX subscriptions_fixed_end_idx');
    await runner.query('ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_source_check');
    await runner.query(`ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_source_check CHECK (source IN ('processor', 'manual'))`);
    await runner.query('DROP TABLE gifts');
  }
}
