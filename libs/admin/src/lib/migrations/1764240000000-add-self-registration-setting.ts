import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Whether readers may create their own accounts (spec 5.2 calls customer auth optional); on until staff turn it off. */
export class AddSelfRegistrationSetting1764240000000 implements MigrationInterface {
  name = 'AddSelfRegistrationSetting1764240000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE publications ADD COLUMN self_registration boolean NOT NULL DEFAULT true');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE publications DROP COLUMN self_registration');
  }
}
