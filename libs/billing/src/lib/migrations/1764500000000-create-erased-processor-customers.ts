import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The processor's ids of accounts deleted by an erasure (docs/customers.md): an event the processor
 * sends about one afterwards (the cancellations its deletion causes) is recorded without its payload.
 */
export class CreateErasedProcessorCustomers1764500000000 implements MigrationInterface {
  name = 'CreateErasedProcessorCustomers1764500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE erased_processor_customers (
        processor_customer_id text PRIMARY KEY,
        erased_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE erased_processor_customers');
  }
}
