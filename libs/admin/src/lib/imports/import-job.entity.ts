import type { ImportStatus } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One import: its rows live in `import_rows`, keyed by the line they start on. */
@Entity({ name: 'import_jobs' })
export class ImportJob {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'publication_id', type: 'uuid' })
  publicationId: string;

  @Column({ type: 'text' })
  status: ImportStatus;

  @Column({ name: 'notify_readers', type: 'boolean' })
  notifyReaders: boolean;

  @Column({ name: 'total_rows', type: 'integer' })
  totalRows: number;

  /** The current pass (check or import) has done every row before this line. */
  @Column({ name: 'next_line', type: 'integer' })
  nextLine: number;

  @Column({ name: 'customers_created', type: 'integer' })
  customersCreated: number;

  @Column({ name: 'customers_unchanged', type: 'integer' })
  customersUnchanged: number;

  @Column({ name: 'subscriptions_created', type: 'integer' })
  subscriptionsCreated: number;

  @Column({ name: 'subscriptions_unchanged', type: 'integer' })
  subscriptionsUnchanged: number;

  /** While a runner works on it; a runner that stopped leaves it to the next once this passes. */
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
