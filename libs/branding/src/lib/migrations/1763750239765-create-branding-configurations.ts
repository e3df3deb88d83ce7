import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateBrandingConfigurations1763750239765 implements MigrationInterface {
  name = 'CreateBrandingConfigurations1763750239765';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE branding_configurations (
        publication_id uuid PRIMARY KEY,
        branding_mode text NOT NULL DEFAULT 'generic' CHECK (branding_mode IN ('generic', 'themed', 'custom')),
        brand_color text NULL,
        brand_color_hover text NULL,
        logo_url text NULL,
        border_radius text NULL,
        font_family text NULL,
        auth_heading text NULL,
        auth_description text NULL,
        auth_register_heading text NULL,
        auth_register_description text NULL,
        paywall_heading text NULL,
        paywall_description text NULL,
        paywall_cta_text text NULL,
        custom_css text NULL,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE branding_configurations');
  }
}
