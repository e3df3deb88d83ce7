import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSigningKeys1763710000000 implements MigrationInterface {
  name = 'CreateSigningKeys1763710000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        algorithm text NOT NULL,
        public_jwk jsonb NOT NULL,
        private_key_pem text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE signing_keys');
  }
}
