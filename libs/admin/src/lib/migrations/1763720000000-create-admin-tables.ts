import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAdminTables1763720000000 implements MigrationInterface {
  name = 'CreateAdminTables1763720000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE publications (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        domains text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE staff (
        id uuid PRIMARY KEY,
        email text NOT NULL UNIQUE CHECK (email = lower(email)),
        name text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE memberships (
        staff_id uuid NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
        publication_id uuid NOT NULL REFERENCES publications (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('admin', 'viewer')),
        created_at timestamptz NOT NULL,
        PRIMARY KEY (staff_id, publication_id)
      )`);
    await runner.query('CREATE INDEX memberships_publication_id_idx ON memberships (publication_id)');
    await runner.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY,
        staff_id uuid NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        current_publication_id uuid NOT NULL REFERENCES publications (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz NULL
      )`);
    await runner.query('CREATE INDEX sessions_staff_id_idx ON sessions (staff_id)');
    await runner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL CONSTRAINT api_keys_publication_id_fkey REFERENCES publications (id) ON DELETE CASCADE,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('publishable', 'secret')),
        prefix text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz NULL,
        revoked_at timestamptz NULL
      )`);
    // Revoked keys keep their row, so a pair's name is never handed out twice in a publication (decisions B2).
    await runner.query('CREATE UNIQUE INDEX api_keys_publication_name_kind_key ON api_keys (publication_id, name, kind)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE api_keys');
    await runner.query('DROP TABLE sessions');
    await runner.query('DROP TABLE memberships');
    await runner.query('DROP TABLE staff');
    await runner.query('DROP TABLE publications');
  }
}
