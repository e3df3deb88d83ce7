import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A deleted customer's email may be registered again; the list of customer records reads newest first. */
export class FreeDeletedCustomersEmails1763742529955 implements MigrationInterface {
  name = 'FreeDeletedCustomersEmails1763742529955';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX customers_publication_id_email_key');
    await runner.query('CREATE UNIQUE INDEX customers_publication_id_email_key ON customers (publication_id, email) WHERE deleted_at IS NULL');
    await runner.query(
      'CREATE INDEX customers_publication_id_created_at_id_idx ON customers (publication_id, created_at DESC, id DESC) WHERE deleted_at IS NULL',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX customers_publication_id_created_at_id_idx');
    await runner.query('DROP INDEX customers_publication_id_email_key');
    await runner.query('CREATE UNIQUE INDEX customers_publication_id_email_key ON customers (publication_id, email)');
  }
}
