import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An offer limited to a segment (issue #25 item 1): the segment is access's, so only its id is
 * kept here, without a foreign key; access decides who is in it.
 */
export class AddOfferSegments1796500000000 implements MigrationInterface {
  name = 'AddOfferSegments1796500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE offers ADD COLUMN segment_id uuid NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE offers DROP COLUMN segment_id');
  }
}
