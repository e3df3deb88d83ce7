import { Injectable } from '@nestjs/common';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';

/**
 * The batches of checks the gateways answered themselves, by the id each gateway gives a batch and
 * keeps when it sends it again: a batch whose answer was lost (a timeout after access had taken it)
 * is recorded by whichever replica gets it first, and never twice. Pruned after a day by retention.
 */
@Injectable()
export class EdgeCheckBatches {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** True the first time `batchId` arrives, false for every later delivery of it. */
  async firstDelivery(batchId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(`INSERT INTO edge_check_batches (id, received_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id`, [
      batchId,
      this.clock.now(),
    ])) as unknown[];
    return rows.length === 1;
  }
}
