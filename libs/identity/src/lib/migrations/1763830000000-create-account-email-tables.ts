import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Account email (docs/email.md): verified addresses, one-time tokens and codes, the message queue, per-email throttling, edited copy. */
export class CreateAccountEmailTables1763830000000 implements MigrationInterface {
  name = 'CreateAccountEmailTables1763830000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE customers ADD COLUMN email_verified_at timestamptz NULL');
    await runner.query(`ALTER TABLE customers ADD COLUMN language text NOT NULL DEFAULT 'en'`);
    await runner.query(`
      CREATE TABLE email_tokens (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('password_reset', 'email_verification', 'login_code')),
        token_hash text NOT NULL UNIQUE,
        code_hash text NULL,
        wrong_codes integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz NULL
      )`);
    await runner.query('CREATE INDEX email_tokens_customer_id_purpose_idx ON email_tokens (customer_id, purpose)');
    await runner.query(`
      CREATE TABLE email_messages (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        customer_id uuid NULL,
        kind text NOT NULL,
        to_address text NOT NULL,
        recipient_name text NOT NULL,
        language text NOT NULL,
        secrets jsonb NULL,
        return_url text NULL,
        status text NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
        delivery text NULL,
        attempts integer NOT NULL DEFAULT 0,
        due_at timestamptz NOT NULL,
        lease_until timestamptz NULL,
        last_error text NULL,
        subject text NULL,
        text_body text NULL,
        html_body text NULL,
        created_at timestamptz NOT NULL,
        sent_at timestamptz NULL
      )`);
    await runner.query(`CREATE INDEX email_messages_due_idx ON email_messages (due_at) WHERE status IN ('pending', 'sending')`);
    await runner.query('CREATE INDEX email_messages_publication_id_created_at_id_idx ON email_messages (publication_id, created_at DESC, id DESC)');
    await runner.query(`
      CREATE TABLE email_requests (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        email text NOT NULL,
        kind text NOT NULL,
        requested_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX email_requests_publication_id_email_kind_idx ON email_requests (publication_id, email, kind, requested_at)');
    await runner.query(`
      CREATE TABLE email_templates (
        publication_id uuid NOT NULL,
        kind text NOT NULL,
        language text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        action text NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (publication_id, kind, language)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE email_templates');
    await runner.query('DROP TABLE email_requests');
    await runner.query('DROP TABLE email_messages');
    await runner.query('DROP TABLE email_tokens');
    await runner.query('ALTER TABLE customers DROP COLUMN language');
    await runner.query('ALTER TABLE customers DROP COLUMN email_verified_at');
  }
}
