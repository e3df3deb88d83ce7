import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Shared articles (issue #25 item 3): the publication's sharing settings, the links, their opens and the conversions they led to. */
export class ShareLinks1764210000000 implements MigrationInterface {
  name = 'ShareLinks1764210000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE share_settings (
        publication_id uuid PRIMARY KEY,
        enabled boolean NOT NULL,
        opens_per_link integer NOT NULL CHECK (opens_per_link BETWEEN 1 AND 1000),
        link_lifetime_hours integer NOT NULL CHECK (link_lifetime_hours BETWEEN 1 AND 8760),
        monthly_allowance integer NOT NULL CHECK (monthly_allowance BETWEEN 1 AND 1000),
        updated_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE share_links (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        customer_id uuid NOT NULL,
        first_name text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        page_key text NOT NULL,
        url text NOT NULL,
        max_opens integer NOT NULL,
        opens integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX share_links_sharer ON share_links (publication_id, customer_id, created_at)');
    await runner.query('CREATE INDEX share_links_created ON share_links (publication_id, created_at)');
    await runner.query(`
      CREATE TABLE share_opens (
        -- Kept for the stats when a sharer's erasure deletes their links.
        share_link_id uuid REFERENCES share_links (id) ON DELETE SET NULL,
        publication_id uuid NOT NULL,
        opened_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX share_opens_time ON share_opens (publication_id, opened_at)');
    await runner.query(`
      CREATE TABLE share_conversions (
        share_link_id uuid REFERENCES share_links (id) ON DELETE SET NULL,
        publication_id uuid NOT NULL,
        converted_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX share_conversions_time ON share_conversions (publication_id, converted_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE share_conversions');
    await runner.query('DROP TABLE share_opens');
    await runner.query('DROP TABLE share_links');
    await runner.query('DROP TABLE share_settings');
  }
}
