import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRefreshTokens1763730000000 implements MigrationInterface {
  name = 'CreateRefreshTokens1763730000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE refresh_token_families (
        id uuid PRIMARY KEY,
        customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
        publication_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz NULL
      )`);
    await runner.query('CREATE INDEX refresh_token_families_customer_id_idx ON refresh_token_families (customer_id)');
    await runner.query(`
      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY,
        family_id uuid NOT NULL REFERENCES refresh_token_families (id) ON DELETE CASCADE,
        customer_id uuid NOT NULL,
        publication_id uuid NOT NULL,
        token_hash text NOT NULL UNIQUE,
        issued_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz NULL,
        revoked_at timestamptz NULL
      )`);
    await runner.query('CREATE INDEX refresh_tokens_family_id_idx ON refresh_tokens (family_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE refresh_tokens');
    await runner.query('DROP TABLE refresh_token_families');
  }
}
