import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Invitations, the team change log, and the `editor` role between owner (`admin`) and viewer. */
export class CreateTeamTables1764000000000 implements MigrationInterface {
  name = 'CreateTeamTables1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE memberships DROP CONSTRAINT memberships_role_check');
    await runner.query(`ALTER TABLE memberships ADD CONSTRAINT memberships_role_check CHECK (role IN ('admin', 'editor', 'viewer'))`);
    await runner.query(`
      CREATE TABLE invitations (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL REFERENCES publications (id) ON DELETE CASCADE,
        email text NOT NULL CHECK (email = lower(email)),
        role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
        token_hash text NOT NULL UNIQUE,
        invited_by uuid NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz NULL,
        revoked_at timestamptz NULL
      )`);
    await runner.query('CREATE INDEX invitations_publication_id_idx ON invitations (publication_id)');
    await runner.query(`
      CREATE TABLE team_changes (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL REFERENCES publications (id) ON DELETE CASCADE,
        action text NOT NULL,
        actor_email text NOT NULL,
        subject_email text NOT NULL,
        role text NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX team_changes_publication_id_idx ON team_changes (publication_id, created_at DESC)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE team_changes');
    await runner.query('DROP TABLE invitations');
    await runner.query(`DELETE FROM memberships WHERE role = 'editor'`);
    await runner.query('ALTER TABLE memberships DROP CONSTRAINT memberships_role_check');
    await runner.query(`ALTER TABLE memberships ADD CONSTRAINT memberships_role_check CHECK (role IN ('admin', 'viewer'))`);
  }
}
