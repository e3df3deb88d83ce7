import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAccessTables1763771942137 implements MigrationInterface {
  name = 'CreateAccessTables1763771942137';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE segments (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        name text NOT NULL,
        match text NOT NULL CHECK (match IN ('all', 'any')),
        conditions jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (id, publication_id)
      )`);
    await runner.query('CREATE INDEX segments_publication_id_created_at_idx ON segments (publication_id, created_at, id)');
    // The composite foreign keys keep a paywall's segment and an experiment's paywall in the same publication.
    await runner.query(`
      CREATE TABLE paywalls (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('hard', 'soft', 'metered', 'registration', 'newsletter', 'data')),
        config jsonb NOT NULL,
        include_globs text[] NOT NULL,
        exclude_globs text[] NOT NULL,
        segment_id uuid NULL,
        priority integer NOT NULL,
        enabled boolean NOT NULL,
        presentation text NOT NULL CHECK (presentation IN ('modal', 'inline', 'sticky_bar', 'content_lock')),
        copy jsonb NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (id, publication_id),
        FOREIGN KEY (segment_id, publication_id) REFERENCES segments (id, publication_id)
      )`);
    await runner.query('CREATE INDEX paywalls_publication_id_priority_idx ON paywalls (publication_id, priority, created_at, id)');
    await runner.query('CREATE INDEX paywalls_segment_id_idx ON paywalls (segment_id)');
    await runner.query(`
      CREATE TABLE experiments (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL,
        paywall_id uuid NOT NULL,
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('draft', 'running', 'stopped')),
        variants jsonb NOT NULL,
        started_at timestamptz NULL,
        stopped_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        FOREIGN KEY (paywall_id, publication_id) REFERENCES paywalls (id, publication_id) ON DELETE CASCADE
      )`);
    await runner.query("CREATE UNIQUE INDEX experiments_one_running_per_paywall ON experiments (paywall_id) WHERE status = 'running'");
    await runner.query('CREATE INDEX experiments_publication_id_created_at_idx ON experiments (publication_id, created_at, id)');

    // Readers: `reader_key` is `c:<customer id>` or `v:<the site's visitor id>`.
    await runner.query(`
      CREATE TABLE visitor_links (
        publication_id uuid NOT NULL,
        visitor_id text NOT NULL,
        customer_id uuid NOT NULL,
        linked_at timestamptz NOT NULL,
        PRIMARY KEY (publication_id, visitor_id)
      )`);
    await runner.query('CREATE INDEX visitor_links_customer_idx ON visitor_links (publication_id, customer_id)');
    await runner.query(`
      CREATE TABLE visits (
        publication_id uuid NOT NULL,
        reader_key text NOT NULL,
        count bigint NOT NULL,
        last_visit_at timestamptz NOT NULL,
        PRIMARY KEY (publication_id, reader_key)
      )`);
    await runner.query(`
      CREATE TABLE meter_views (
        publication_id uuid NOT NULL,
        paywall_id uuid NOT NULL,
        reader_key text NOT NULL,
        page text NOT NULL,
        viewed_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX meter_views_reader_idx ON meter_views (publication_id, paywall_id, reader_key, viewed_at)');
    await runner.query(`
      CREATE TABLE visitor_passes (
        publication_id uuid NOT NULL,
        reader_key text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('newsletter', 'data')),
        fields text[] NOT NULL,
        passed_at timestamptz NOT NULL,
        PRIMARY KEY (publication_id, reader_key, kind, fields)
      )`);

    // One row per hour and paywall (variant null) or variant; paywall null counts checks no paywall applied to.
    await runner.query(`
      CREATE TABLE hourly_stats (
        publication_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        paywall_id uuid NULL,
        experiment_id uuid NULL,
        variant_id uuid NULL,
        checks_granted bigint NOT NULL DEFAULT 0,
        checks_denied bigint NOT NULL DEFAULT 0,
        shown bigint NOT NULL DEFAULT 0,
        dismissed bigint NOT NULL DEFAULT 0,
        converted bigint NOT NULL DEFAULT 0
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX hourly_stats_key ON hourly_stats (publication_id, hour, paywall_id, variant_id) NULLS NOT DISTINCT',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['hourly_stats', 'visitor_passes', 'meter_views', 'visits', 'visitor_links', 'experiments', 'paywalls', 'segments']) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
