import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The setting the retention round sets on its own connection: the one way a row of the audit log goes. */
export const AUDIT_PRUNE_SETTING = 'gatehouse.audit_prune';

/**
 * The audit log of staff writes (issue 27 item 7). Append-only under every role, the one role of
 * `npm start` included: a trigger refuses UPDATE and TRUNCATE always, and DELETE unless the
 * session set AUDIT_PRUNE_SETTING, as only the retention round does.
 */
export class CreateAuditLog1796300000000 implements MigrationInterface {
  name = 'CreateAuditLog1796300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE audit_entries (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL REFERENCES publications (id),
        staff_id uuid NOT NULL,
        actor_email text NOT NULL,
        actor_name text NOT NULL,
        action text NOT NULL,
        method text NOT NULL,
        route text NOT NULL,
        path text NOT NULL,
        resource_id text NULL,
        changes jsonb NULL,
        address text NOT NULL,
        request_id text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX audit_entries_publication_id_idx ON audit_entries (publication_id, created_at DESC, id DESC)');
    await runner.query('CREATE INDEX audit_entries_created_at_idx ON audit_entries (created_at)');
    await runner.query(`
      CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('${AUDIT_PRUNE_SETTING}', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'the audit log is append-only (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await runner.query('CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()');
    await runner.query('CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE audit_entries');
    await runner.query('DROP FUNCTION audit_entries_append_only()');
  }
}
