import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Organisations (issue #26): their seats, invitations and networks (docs/organisations.md). */
export class CreateOrganisations1796400000000 implements MigrationInterface {
  name = 'CreateOrganisations1796400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE organisations (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        name text NOT NULL,
        product_id uuid NOT NULL,
        seats integer NULL CHECK (seats > 0),
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NULL CHECK (ends_at > starts_at),
        domains text[] NOT NULL DEFAULT '{}',
        ip_ranges text[] NOT NULL DEFAULT '{}',
        allow_reserved_ranges boolean NOT NULL DEFAULT false,
        manager_ids uuid[] NOT NULL DEFAULT '{}',
        processor_subscription_id text NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX organisations_publication_page_idx ON organisations (publication_id, created_at DESC, id DESC)');
    await runner.query('CREATE INDEX organisations_domains_idx ON organisations USING gin (domains)');
    await runner.query('CREATE INDEX organisations_managers_idx ON organisations USING gin (manager_ids)');
    await runner.query('CREATE UNIQUE INDEX organisations_processor_subscription_key ON organisations (processor_subscription_id) WHERE processor_subscription_id IS NOT NULL');
    await runner.query(`
      CREATE TABLE organisation_members (
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        customer_id uuid NOT NULL,
        publication_id uuid NOT NULL,
        email text NOT NULL,
        via text NOT NULL CHECK (via IN ('invitation', 'domain')),
        joined_at timestamptz NOT NULL,
        PRIMARY KEY (organisation_id, customer_id)
      )`);
    await runner.query('CREATE INDEX organisation_members_customer_idx ON organisation_members (publication_id, customer_id)');
    await runner.query(`
      CREATE TABLE organisation_invitations (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        publication_id uuid NOT NULL,
        email text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX organisation_invitations_organisation_idx ON organisation_invitations (organisation_id, created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE organisation_invitations');
    await runner.query('DROP TABLE organisation_members');
    await runner.query('DROP TABLE organisations');
  }
}
