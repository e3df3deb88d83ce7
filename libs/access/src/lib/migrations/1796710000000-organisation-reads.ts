import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organisations' stats (issue #26 item 5, docs/organisations.md#stats): the checks each one
 * granted per hour, by a seat or a network, and the readers it let in per day (their reader keys,
 * so a reader counts once however often they read; erased with the reader, and past
 * VISITS_RETENTION_DAYS folded into the count of the day's readers, `folded_readers`).
 */
export class OrganisationReads1796710000000 implements MigrationInterface {
  name = 'OrganisationReads1796710000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE organisation_reads (
        publication_id uuid NOT NULL,
        organisation_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        seat_reads bigint NOT NULL DEFAULT 0,
        network_reads bigint NOT NULL DEFAULT 0,
        folded_readers bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (publication_id, organisation_id, hour)
      )`);
    await runner.query(`
      CREATE TABLE organisation_readers (
        publication_id uuid NOT NULL,
        organisation_id uuid NOT NULL,
        day timestamptz NOT NULL,
        reader_key text NOT NULL,
        PRIMARY KEY (publication_id, organisation_id, day, reader_key)
      )`);
    await runner.query('CREATE INDEX organisation_readers_reader_idx ON organisation_readers (publication_id, reader_key)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE organisation_readers');
    await runner.query('DROP TABLE organisation_reads');
  }
}
