import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each save counts one revision, which `If-Match` is checked against in the save's own statement. */
export class BrandingRevision1764100000000 implements MigrationInterface {
  name = 'BrandingRevision1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE branding_configurations ADD COLUMN revision integer NOT NULL DEFAULT 0');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE branding_configurations DROP COLUMN revision');
  }
}
