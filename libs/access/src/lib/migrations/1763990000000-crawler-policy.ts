import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The crawler policy per publication, and its own counter in the hourly rollups. */
export class CrawlerPolicy1763990000000 implements MigrationInterface {
  name = 'CrawlerPolicy1763990000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE crawler_policies (
        publication_id uuid PRIMARY KEY,
        search_engines text NOT NULL CHECK (search_engines IN ('grant', 'meter', 'deny')),
        ai_crawlers text NOT NULL CHECK (ai_crawlers IN ('allow', 'meter', 'deny')),
        updated_at timestamptz NOT NULL
      )`);
    await runner.query('ALTER TABLE hourly_stats ADD COLUMN crawler_checks bigint NOT NULL DEFAULT 0');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE hourly_stats DROP COLUMN crawler_checks');
    await runner.query('DROP TABLE crawler_policies');
  }
}
