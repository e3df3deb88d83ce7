import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account email links go only to domains their owner proved (issue 22 item 9): each claimed domain
 * gets a token to publish. Domains claimed before start unproven, with a token of their own.
 */
export class AddDomainProofs1764200000000 implements MigrationInterface {
  name = 'AddDomainProofs1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE publications ADD COLUMN domain_proofs jsonb NOT NULL DEFAULT '{}'`);
    await runner.query(`
      UPDATE publications p SET domain_proofs = (
        SELECT coalesce(jsonb_object_agg(d, jsonb_build_object('token', 'gatehouse-verification=' || replace(gen_random_uuid()::text, '-', ''), 'verifiedAt', NULL)), '{}')
        FROM unnest(p.domains) AS d
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE publications DROP COLUMN domain_proofs');
  }
}
