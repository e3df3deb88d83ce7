import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A publishable key is public (every page of the site carries it), so it is kept readable for the
 * dashboard's ready-to-paste snippet; secret keys stay hashed only. Keys made before have none.
 */
export class KeepPublishableKeys1764100000000 implements MigrationInterface {
  name = 'KeepPublishableKeys1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE api_keys ADD COLUMN publishable_key text');
    await runner.query(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_publishable_key_kind CHECK (publishable_key IS NULL OR kind = 'publishable')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE api_keys DROP COLUMN publishable_key');
  }
}
