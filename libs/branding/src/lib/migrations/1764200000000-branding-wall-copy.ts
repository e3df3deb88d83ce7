import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Copy per wall type (soft, registration, newsletter, data) and the meter notice's: nullable, so existing rows keep the defaults. */
export class BrandingWallCopy1764200000000 implements MigrationInterface {
  name = 'BrandingWallCopy1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE branding_configurations ADD COLUMN soft_heading text, ADD COLUMN soft_description text, ADD COLUMN soft_cta_text text, ADD COLUMN registration_heading text, ADD COLUMN registration_description text, ADD COLUMN registration_cta_text text, ADD COLUMN newsletter_heading text, ADD COLUMN newsletter_description text, ADD COLUMN newsletter_cta_text text, ADD COLUMN data_heading text, ADD COLUMN data_description text, ADD COLUMN data_cta_text text, ADD COLUMN meter_notice_text text, ADD COLUMN meter_register_text text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE branding_configurations DROP COLUMN soft_heading, DROP COLUMN soft_description, DROP COLUMN soft_cta_text, DROP COLUMN registration_heading, DROP COLUMN registration_description, DROP COLUMN registration_cta_text, DROP COLUMN newsletter_heading, DROP COLUMN newsletter_description, DROP COLUMN newsletter_cta_text, DROP COLUMN data_heading, DROP COLUMN data_description, DROP COLUMN data_cta_text, DROP COLUMN meter_notice_text, DROP COLUMN meter_register_text`);
  }
}
