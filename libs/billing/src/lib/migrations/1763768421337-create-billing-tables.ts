import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateBillingTables1763768421337 implements MigrationInterface {
  name = 'CreateBillingTables1763768421337';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE products (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        name text NOT NULL,
        description text NULL,
        entitlements uuid[] NOT NULL DEFAULT '{}',
        active boolean NOT NULL,
        processor_product_id text NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX products_publication_page_idx ON products (publication_id, created_at DESC, id DESC)');
    await runner.query(`
      CREATE TABLE prices (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        currency text NOT NULL CHECK (currency ~ '^[a-z]{3}$'),
        unit_amount integer NOT NULL CHECK (unit_amount >= 0),
        interval text NOT NULL CHECK (interval IN ('month', 'year', 'lifetime')),
        trial_days integer NOT NULL DEFAULT 0 CHECK (trial_days >= 0),
        active boolean NOT NULL,
        processor_price_id text NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX prices_product_page_idx ON prices (product_id, created_at DESC, id DESC)');
    await runner.query('CREATE UNIQUE INDEX prices_processor_price_id_key ON prices (publication_id, processor_price_id)');
    await runner.query(`
      CREATE TABLE processor_settings (
        publication_id uuid PRIMARY KEY,
        secret_key_sealed text NOT NULL,
        webhook_secret_sealed text NOT NULL,
        webhook_endpoint_id text NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE processor_customers (
        publication_id uuid NOT NULL,
        customer_id uuid NOT NULL,
        processor_customer_id text NOT NULL,
        email text NULL,
        name text NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (publication_id, customer_id),
        UNIQUE (publication_id, processor_customer_id)
      )`);
    await runner.query(`
      CREATE TABLE subscriptions (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        customer_id uuid NOT NULL,
        price_id uuid NOT NULL REFERENCES prices (id),
        status text NOT NULL CHECK (status IN ('active', 'trialing', 'past_due', 'cancelled')),
        source text NOT NULL CHECK (source IN ('processor', 'manual')),
        current_period_start timestamptz NOT NULL,
        current_period_end timestamptz NULL,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        trial_start timestamptz NULL,
        trial_end timestamptz NULL,
        past_due_since timestamptz NULL,
        activated_at timestamptz NULL,
        cancelled_at timestamptz NULL,
        processor_subscription_id text NULL,
        processor_checkout_session_id text NULL,
        processor_state_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE UNIQUE INDEX subscriptions_processor_subscription_key ON subscriptions (publication_id, processor_subscription_id)');
    await runner.query('CREATE UNIQUE INDEX subscriptions_processor_checkout_key ON subscriptions (publication_id, processor_checkout_session_id)');
    await runner.query('CREATE INDEX subscriptions_customer_idx ON subscriptions (publication_id, customer_id, created_at DESC)');
    await runner.query('CREATE INDEX subscriptions_publication_page_idx ON subscriptions (publication_id, created_at DESC, id DESC)');
    await runner.query(`CREATE INDEX subscriptions_manual_end_idx ON subscriptions (current_period_end) WHERE source = 'manual' AND status <> 'cancelled'`);
    await runner.query(`
      CREATE TABLE checkout_sessions (
        publication_id uuid NOT NULL,
        processor_session_id text NOT NULL,
        customer_id uuid NOT NULL,
        price_id uuid NOT NULL,
        experiment_id text NULL,
        variant_id text NULL,
        paywall_id text NULL,
        created_at timestamptz NOT NULL,
        completed_at timestamptz NULL,
        PRIMARY KEY (publication_id, processor_session_id)
      )`);
    await runner.query('CREATE INDEX checkout_sessions_completed_idx ON checkout_sessions (publication_id, completed_at) WHERE completed_at IS NOT NULL');
    await runner.query(`
      CREATE TABLE processor_events (
        scope text NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        payload jsonb NOT NULL,
        received_at timestamptz NOT NULL,
        processed_at timestamptz NULL,
        outcome text NULL,
        PRIMARY KEY (scope, event_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['processor_events', 'checkout_sessions', 'subscriptions', 'processor_customers', 'processor_settings', 'prices', 'products']) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
